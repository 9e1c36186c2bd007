import {
  changePasswordSchema,
  forgotPasswordSchema,
  MESSAGES,
  profileSchema,
  resetLinkSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  verifyEmailSchema,
} from '../../../shared/auth-schemas.ts';
import { unauthorized } from '../../errors.ts';
import { type Account, getAccount } from '../../services/accounts/account.ts';
import { resendVerificationMail, verifyEmail } from '../../services/accounts/email-verification.ts';
import { googleSignInEnabled } from '../../services/accounts/google-oauth-config.ts';
import {
  changePassword,
  requestPasswordReset,
  resetPassword,
} from '../../services/accounts/password-reset.ts';
import { updateProfile } from '../../services/accounts/profile.ts';
import { isResetLinkUsable } from '../../services/accounts/reset-link-status.ts';
import { secureCookies } from '../../services/accounts/session-user.ts';
import { blankSessionCookie, invalidateSession, sessionCookie } from '../../services/accounts/sessions.ts';
import { signIn } from '../../services/accounts/sign-in.ts';
import { type NewSession, signUp } from '../../services/accounts/sign-up.ts';
import type { Context } from '../context.ts';
import { protectedProcedure, publicProcedure, router } from '../init.ts';

export const authRouter = router({
  /** The signed-in person's own account, or null when nobody is signed in. */
  me: publicProcedure.query(({ ctx }) => (ctx.user ? getAccount(ctx.db, ctx.user.id) : null)),

  /** Whether 'Continue with Google' should be shown (both Google keys configured). */
  googleEnabled: publicProcedure.query(({ ctx }) => googleSignInEnabled(ctx.deps.env)),

  signUp: publicProcedure.input(signUpSchema).mutation(async ({ ctx, input }) => {
    return startSession(ctx, await signUp(ctx.deps, input, ctx.request.origin, ctx.request.ip));
  }),

  signIn: publicProcedure.input(signInSchema).mutation(async ({ ctx, input }) => {
    return startSession(
      ctx,
      await signIn(ctx.deps, input, { ip: ctx.request.ip, previousSessionId: ctx.sessionId }),
    );
  }),

  /** Ends this browser's session on the server and clears its cookie. */
  signOut: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.sessionId) await invalidateSession(ctx.db, ctx.sessionId);
    ctx.request.resHeaders.append(
      'Set-Cookie',
      blankSessionCookie(secureCookies(ctx.deps, ctx.request.origin)),
    );
    return { ok: true as const };
  }),

  updateProfile: protectedProcedure
    .input(profileSchema)
    .mutation(({ ctx, input }) => updateProfile(ctx.deps, ctx.user.id, input)),

  changePassword: protectedProcedure.input(changePasswordSchema).mutation(async ({ ctx, input }) => {
    return startSession(ctx, await changePassword(ctx.deps, ctx.user.id, input));
  }),

  /** Always the same answer, whether or not the address has an account. */
  requestPasswordReset: publicProcedure.input(forgotPasswordSchema).mutation(async ({ ctx, input }) => {
    await requestPasswordReset(ctx.deps, input.email, ctx.request.origin, ctx.request.ip);
    return { message: MESSAGES.resetRequested };
  }),

  /** Whether a reset link can still set a password, so a used or expired one says so on opening. */
  resetLinkStatus: publicProcedure
    .input(resetLinkSchema)
    .query(async ({ ctx, input }) => ({ usable: await isResetLinkUsable(ctx.deps, input.token) })),

  resetPassword: publicProcedure.input(resetPasswordSchema).mutation(async ({ ctx, input }) => {
    await resetPassword(ctx.deps, input);
    return { ok: true as const };
  }),

  verifyEmail: publicProcedure.input(verifyEmailSchema).mutation(async ({ ctx, input }) => {
    await verifyEmail(ctx.deps, input.token);
    return { ok: true as const };
  }),

  resendVerification: protectedProcedure.mutation(async ({ ctx }) => {
    await resendVerificationMail(ctx.deps, ctx.user.id, ctx.request.origin, ctx.request.ip);
    return { ok: true as const };
  }),
});

/** Sends the new session's cookie and returns the account it belongs to. */
async function startSession(ctx: Context, session: NewSession): Promise<Account> {
  ctx.request.resHeaders.append(
    'Set-Cookie',
    sessionCookie(session.token, session.expiresAt, secureCookies(ctx.deps, ctx.request.origin)),
  );
  const account = await getAccount(ctx.db, session.userId);
  if (!account) throw unauthorized();
  return account;
}
