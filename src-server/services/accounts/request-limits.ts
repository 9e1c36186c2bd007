import { MESSAGES } from '../../../shared/auth-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { tooManyRequests } from '../../errors.ts';
import { type RateLimit, rateLimitSteps } from '../rate-limits/rate-limits.ts';

/**
 * Limits on the account requests that send mail to an address nobody has proved is theirs: sign-up
 * (the verification mail), 'send the verification email again' and 'forgot password'. Sign-in has its
 * own (login-throttle.ts). Each mail kind is also held to 3 per account per window, quietly (in
 * email-verification.ts and password-reset.ts); these add the client address, and the e-mail address
 * for sign-ups, whether or not an account ends up made. The window and the per-address numbers follow
 * the sign-in limits: many people may share one public address.
 */
const WINDOW_MS = 15 * 60_000;
export const SIGN_UPS_PER_EMAIL: RateLimit = { name: 'sign-up/email', max: 3, windowMs: WINDOW_MS };
export const SIGN_UPS_PER_CLIENT: RateLimit = { name: 'sign-up/client', max: 20, windowMs: WINDOW_MS };
export const ACCOUNT_MAILS_PER_CLIENT: RateLimit = {
  name: 'account-mail/client',
  max: 10,
  windowMs: WINDOW_MS,
};

/**
 * All sign-ups together, from every address (SIGN_UPS_PER_HOUR): a flood from many addresses passes
 * each per-address limit, so what anonymous traffic can store (accounts) and queue (their verification
 * mail) is bounded in total too (issue 37).
 */
export function signUpsOfAll(perHour: number): RateLimit {
  return { name: 'sign-up/all', max: perHour, windowMs: 60 * 60_000 };
}

export async function limitSignUps(
  db: Db,
  email: string,
  ip: string,
  now: Date,
  allPerHour: number,
): Promise<void> {
  const counted = [
    { limit: SIGN_UPS_PER_EMAIL, key: email },
    { limit: SIGN_UPS_PER_CLIENT, key: ip },
    { limit: signUpsOfAll(allPerHour), key: 'all' },
  ];
  if (!(await takeOnEngine(db, counted, now))) throw tooManyRequests(MESSAGES.tooManySignUps);
}

/** Verification resends and password-reset requests, together, per client address. */
export async function limitAccountMailRequests(db: Db, ip: string, now: Date): Promise<void> {
  if (!(await takeOnEngine(db, [{ limit: ACCOUNT_MAILS_PER_CLIENT, key: ip }], now))) {
    throw tooManyRequests(MESSAGES.tooManyMailRequests);
  }
}

/** The rate limit (`takeRateLimited`) on the engine `db` was opened on. */
function takeOnEngine(db: Db, counted: { limit: RateLimit; key: string }[], now: Date): Promise<boolean> {
  return runnerFor(db).write((tx) => rateLimitSteps(tx as WriteTx, counted, now));
}
