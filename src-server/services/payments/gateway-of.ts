import type { AppDeps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { createRazorpayGateway } from '../../integrations/razorpay/gateway.ts';
import { createSimulatorGateway } from '../../integrations/simulator/gateway.ts';
import type { PaymentGateway } from './gateway.ts';

export const PAYMENTS_NOT_CONFIGURED =
  'Online payments are not set up on this site yet. Please contact support.';

const built = new WeakMap<AppDeps, PaymentGateway>();

/**
 * The app's payment gateway: `deps.paymentGateway` when a test passes one, Razorpay when all three
 * RAZORPAY_* settings are present, otherwise the offline simulator where it is allowed.
 */
export function paymentGatewayOf(deps: AppDeps): PaymentGateway {
  if (deps.paymentGateway) return deps.paymentGateway;
  let gateway = built.get(deps);
  if (!gateway) {
    gateway = selectGateway(deps);
    built.set(deps, gateway);
  }
  return gateway;
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

function selectGateway(deps: AppDeps): PaymentGateway {
  const { RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET } = deps.env;
  if (RAZORPAY_KEY_ID && RAZORPAY_KEY_SECRET && RAZORPAY_WEBHOOK_SECRET) {
    return createRazorpayGateway({
      keyId: RAZORPAY_KEY_ID,
      keySecret: RAZORPAY_KEY_SECRET,
      webhookSecret: RAZORPAY_WEBHOOK_SECRET,
    });
  }
  // The simulator's Pay button costs nothing: it never sells real tickets unless explicitly allowed.
  if (!simulatorAllowed(deps.env)) throw new DomainError('PRECONDITION_FAILED', PAYMENTS_NOT_CONFIGURED);
  return createSimulatorGateway(deps);
}

/** The offline simulator may take payments everywhere but production, where it must be allowed explicitly. */
export function simulatorAllowed(env: Pick<AppDeps['env'], 'NODE_ENV' | 'ALLOW_PAYMENT_SIMULATOR'>): boolean {
  return env.NODE_ENV !== 'production' || env.ALLOW_PAYMENT_SIMULATOR;
}
