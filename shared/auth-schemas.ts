import { z } from 'zod';
import { indianMobileDigits, MOBILE_INPUT_MAX } from './indian-mobile.ts';
import { isIndianState } from './states.ts';

// One schema per account form, used by the form (react-hook-form + zodResolver) and by the tRPC
// procedure's `.input()`. The messages are spec §5's, word for word.

export const GENDERS = ['male', 'female', 'other'] as const;
export const COUNTRIES = ['india', 'us', 'uk'] as const;
export type Gender = (typeof GENDERS)[number];
export type Country = (typeof COUNTRIES)[number];

export const PASSWORD_MIN = 6;
/** Not in the spec; argon2 of a huge input is a cheap way to burn server CPU, so a ceiling is needed. */
export const PASSWORD_MAX = 128;
/** Every free-text field has a ceiling (issue 18): a person's name, and an address (RFC 5321's 254). */
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;

/** The spec's "simple address shape": something, an at sign, something, a dot, something; no spaces. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordShort: 'Password must be at least 6 characters',
  passwordLong: 'Password must be at most 128 characters',
  nameRequired: 'Name is required',
  nameShort: 'Name must be at least 2 characters',
  nameLong: 'Name must be at most 100 characters',
  emailLong: 'Email must be at most 254 characters',
  mobileInvalid: 'Please enter a valid 10-digit mobile number',
  confirmRequired: 'Please confirm your password',
  passwordsDiffer: 'Passwords do not match',
  termsRequired: 'Please accept the Terms of Service and Privacy Policy',
  emailTaken: 'An account with this email already exists',
  invalidCredentials: 'Invalid email or password',
  tooManyAttempts: 'Too many failed login attempts. Please try again later',
  tooManySignUps: 'Too many sign-up attempts. Please try again later',
  tooManyMailRequests: 'Too many emails requested. Please try again later',
  signInDefault: 'An error occurred during login',
  signUpDefault: 'An error occurred during signup',
  resetRequested: "If an account exists for that address, we've sent a reset link",
  resetLinkInvalid: 'This reset link is invalid or has expired. Please request a new one.',
  verifyLinkInvalid: 'This verification link is invalid or has expired.',
  currentPasswordWrong: 'Incorrect password',
  googleFailed: 'Google sign-in failed. Please try again.',
  googleEmailUnverified: 'Your Google account has no verified email address.',
  googleOtherAccount: 'This email address is already linked to a different Google account.',
} as const;

export const emailField = z
  .string()
  .trim()
  .min(1, MESSAGES.emailRequired)
  // abort: the shape's regex backtracks on a long input (a 50,000-character address took 5 s).
  .max(EMAIL_MAX, { message: MESSAGES.emailLong, abort: true })
  .regex(EMAIL_SHAPE, MESSAGES.emailInvalid)
  .toLowerCase();

/** Sign-up rules for a new password; sign-in uses the same (spec §5 Login: required, at least 6). */
export const passwordField = z
  .string()
  .min(1, MESSAGES.passwordRequired)
  .min(PASSWORD_MIN, MESSAGES.passwordShort)
  .max(PASSWORD_MAX, MESSAGES.passwordLong);

export const nameField = z
  .string()
  .trim()
  .min(1, MESSAGES.nameRequired)
  .min(2, MESSAGES.nameShort)
  .max(NAME_MAX, MESSAGES.nameLong);

/**
 * Optional: empty means not given; otherwise an Indian mobile number as people type it (+91, 0, spaces,
 * dashes), kept as its 10 digits starting 6-9.
 */
export const mobileField = z
  .string()
  .trim()
  .max(MOBILE_INPUT_MAX, { message: MESSAGES.mobileInvalid, abort: true })
  .refine((v) => v === '' || indianMobileDigits(v) !== null, MESSAGES.mobileInvalid)
  .transform((v) => (v === '' ? '' : (indianMobileDigits(v) ?? v)));

const confirmPasswordField = z.string().min(1, MESSAGES.confirmRequired);

/** Reports 'Passwords do not match' on confirmPassword, even when other fields are still invalid. */
function passwordsMatch(value: { password: string; confirmPassword: string }, ctx: z.RefinementCtx) {
  if (value.confirmPassword !== '' && value.password !== value.confirmPassword) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.passwordsDiffer, path: ['confirmPassword'] });
  }
}

export const signInSchema = z.object({
  email: emailField,
  password: passwordField,
});
export type SignInInput = z.input<typeof signInSchema>;

export const signUpSchema = z
  .object({
    name: nameField,
    email: emailField,
    mobile: mobileField,
    password: passwordField,
    confirmPassword: confirmPasswordField,
    acceptTerms: z.boolean().refine((v) => v, MESSAGES.termsRequired),
  })
  .superRefine(passwordsMatch);
export type SignUpInput = z.input<typeof signUpSchema>;

export const profileSchema = z.object({
  name: nameField,
  phone: mobileField,
  gender: z.union([z.enum(GENDERS), z.literal('')]),
  country: z.union([z.enum(COUNTRIES), z.literal('')]),
  // The checkout's list of states and union territories, so the profile prefills the checkout (issue 17).
  state: z
    .string()
    .trim()
    .max(100, { message: 'Please choose your state from the list', abort: true })
    .refine((v) => v === '' || isIndianState(v), 'Please choose your state from the list'),
  about: z.string().trim().max(1000, 'About You must be at most 1000 characters'),
});
export type ProfileInput = z.input<typeof profileSchema>;

export const forgotPasswordSchema = z.object({ email: emailField });
export type ForgotPasswordInput = z.input<typeof forgotPasswordSchema>;

const tokenField = z.string().trim().min(1).max(200);

export const resetPasswordSchema = z
  .object({
    token: tokenField,
    password: passwordField,
    confirmPassword: confirmPasswordField,
  })
  .superRefine(passwordsMatch);
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;

/** The reset page asks, as it opens, whether its link still works (issue 17). */
export const resetLinkSchema = z.object({ token: tokenField });

export const changePasswordSchema = z
  .object({
    /** Empty for an account created through Google that has never had a password. */
    currentPassword: z.string().max(PASSWORD_MAX),
    password: passwordField,
    confirmPassword: confirmPasswordField,
  })
  .superRefine(passwordsMatch);
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

export const verifyEmailSchema = z.object({ token: tokenField });

// Kept zod-free in its own file so the client's always-loaded code can use it (docs/benchmarks.md).
export { safeRedirectPath } from './safe-redirect.ts';
