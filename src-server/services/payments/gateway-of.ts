import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import type { PaymentGateway } from './gateway.ts';

export const PAYMENTS_NOT_CONFIGURED =
  'Online payments are not set up on this site yet. Please contact support.';

/**
 * The app's payment gateway, chosen by the composition root (compose-deps.ts). A site that cannot take
 * payments has none: every payment is refused with PRECONDITION_FAILED before a seat is held.
 */
export function paymentGatewayOf(deps: AppDeps): PaymentGateway {
  if (!deps.paymentGateway) throw new DomainError('PRECONDITION_FAILED', PAYMENTS_NOT_CONFIGURED);
  return deps.paymentGateway;
}

/**
 * Why this configuration cannot take payments, or null when it can. The server refuses to start in
 * production without Razorpay keys unless ALLOW_PAYMENT_SIMULATOR is set.
 */
export function paymentSetupProblem(
  env: Pick<
    AppDeps['env'],
    | 'NODE_ENV'
    | 'ALLOW_PAYMENT_SIMULATOR'
    | 'RAZORPAY_KEY_ID'
    | 'RAZORPAY_KEY_SECRET'
    | 'RAZORPAY_WEBHOOK_SECRET'
  >,
): string | null {
  if (env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET && env.RAZORPAY_WEBHOOK_SECRET) return null;
  if (simulatorAllowed(env)) return null;
  return 'Set RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET to take payments in production, or ALLOW_PAYMENT_SIMULATOR=true for a demo that takes no money.';
}

/** The offline simulator may take payments everywhere but production, where it must be allowed explicitly. */
export function simulatorAllowed(env: Pick<AppDeps['env'], 'NODE_ENV' | 'ALLOW_PAYMENT_SIMULATOR'>): boolean {
  return env.NODE_ENV !== 'production' || env.ALLOW_PAYMENT_SIMULATOR;
}
