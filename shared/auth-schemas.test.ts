import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { profileSchema, safeRedirectPath, signInSchema, signUpSchema } from './auth-schemas.ts';

function firstErrors(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(z.flattenError(result.error).fieldErrors)) {
    const first = (messages as string[] | undefined)?.[0];
    if (first) out[field] = first;
  }
  return out;
}

const validSignUp = {
  name: 'Asha',
  email: 'asha@example.com',
  mobile: '',
  password: 'secret',
  confirmPassword: 'secret',
  acceptTerms: true,
};

describe('signUpSchema', () => {
  it('reports every empty field with the spec message at once', () => {
    expect(
      firstErrors(signUpSchema, {
        name: '',
        email: '',
        mobile: '',
        password: '',
        confirmPassword: '',
        acceptTerms: false,
      }),
    ).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      password: 'Password is required',
      confirmPassword: 'Please confirm your password',
      acceptTerms: 'Please accept the Terms of Service and Privacy Policy',
    });
  });

  it('reports a password mismatch even while another field is invalid', () => {
    expect(firstErrors(signUpSchema, { ...validSignUp, name: '', confirmPassword: 'secreT' })).toEqual({
      name: 'Name is required',
      confirmPassword: 'Passwords do not match',
    });
  });

  it('accepts mobiles of 10 digits starting 6-9, and none', () => {
    for (const mobile of ['', '6000000000', '9999999999', ' 9876543210 ']) {
      expect(signUpSchema.safeParse({ ...validSignUp, mobile }).success).toBe(true);
    }
    for (const mobile of ['5999999999', '98765', '98765432101', '98765-4321', '+1 415 555 0100']) {
      expect(firstErrors(signUpSchema, { ...validSignUp, mobile })).toEqual({
        mobile: 'Please enter a valid 10-digit mobile number',
      });
    }
  });

  it('accepts a mobile as people type it (+91, 0, spaces, dashes) and keeps its 10 digits', () => {
    for (const mobile of ['98765 43210', '+91 98765-43210', '09876543210', '+919876543210']) {
      expect(signUpSchema.parse({ ...validSignUp, mobile }).mobile, mobile).toBe('9876543210');
      expect(
        profileSchema.parse({ name: 'Asha', phone: mobile, gender: '', country: '', state: '', about: '' })
          .phone,
      ).toBe('9876543210');
    }
    expect(signUpSchema.parse({ ...validSignUp, mobile: '' }).mobile).toBe('');
  });

  it("takes the profile's State from the checkout's list, or none", () => {
    const profile = { name: 'Asha', phone: '', gender: '', country: '', about: '' } as const;
    expect(profileSchema.parse({ ...profile, state: 'Tamil Nadu' }).state).toBe('Tamil Nadu');
    expect(profileSchema.parse({ ...profile, state: '' }).state).toBe('');
    expect(firstErrors(profileSchema, { ...profile, state: 'Karnatka' })).toEqual({
      state: 'Please choose your state from the list',
    });
  });

  it('trims the name before counting and lower-cases the email', () => {
    expect(firstErrors(signUpSchema, { ...validSignUp, name: ' A ' })).toEqual({
      name: 'Name must be at least 2 characters',
    });
    const parsed = signUpSchema.parse({ ...validSignUp, email: ' Asha@Example.COM ' });
    expect(parsed.email).toBe('asha@example.com');
  });
});

describe('signInSchema', () => {
  it.each([
    ['', 'Email is required'],
    ['asha', 'Please enter a valid email address'],
    ['asha@example', 'Please enter a valid email address'],
    ['as ha@example.com', 'Please enter a valid email address'],
  ])('email %j → %s', (email, message) => {
    expect(firstErrors(signInSchema, { email, password: 'secret' })).toEqual({ email: message });
  });

  it('requires a password of at least 6 characters', () => {
    expect(firstErrors(signInSchema, { email: 'a@b.co', password: '' })).toEqual({
      password: 'Password is required',
    });
    expect(firstErrors(signInSchema, { email: 'a@b.co', password: '12345' })).toEqual({
      password: 'Password must be at least 6 characters',
    });
  });
});

describe('profileSchema', () => {
  it('allows empty optional fields and only the listed genders and countries', () => {
    const empty = { name: 'Asha', phone: '', gender: '', country: '', state: '', about: '' };
    expect(profileSchema.safeParse(empty).success).toBe(true);
    expect(profileSchema.safeParse({ ...empty, gender: 'robot' }).success).toBe(false);
    expect(profileSchema.safeParse({ ...empty, country: 'france' }).success).toBe(false);
  });
});

describe('safeRedirectPath', () => {
  it('keeps paths on this site', () => {
    expect(safeRedirectPath('/profile')).toBe('/profile');
    expect(safeRedirectPath('/ticket/abc?x=1#y')).toBe('/ticket/abc?x=1#y');
  });

  it.each([
    undefined,
    '',
    'profile',
    '//evil.example',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/\tx',
  ])('falls back to / for %j', (value) => {
    expect(safeRedirectPath(value)).toBe('/');
  });
});
