import type { AppDeps } from '../../deps.ts';
import { createRazorpayGateway } from '../../integrations/razorpay/gateway.ts';
import { createSimulatorGateway } from '../../integrations/simulator/gateway.ts';
import type { PaymentGateway } from './gateway.ts';

const built = new WeakMap<AppDeps, PaymentGateway>();

/**
 * The app's payment gateway: `deps.paymentGateway` when a test passes one, Razorpay when all three
 * RAZORPAY_* settings are present, otherwise the offline simulator.
 */
export function paymentGatewayOf(deps: AppDeps): PaymentGateway {
  if (deps.paymentGateway) return deps.paymentGateway;
  let gateway = built.get(deps);
  if (!gateway) {
    const { RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET } = deps.env;
    gateway =
      RAZORPAY_KEY_ID && RAZORPAY_KEY_SECRET && RAZORPAY_WEBHOOK_SECRET
        ? createRazorpayGateway({
            keyId: RAZORPAY_KEY_ID,
            keySecret: RAZORPAY_KEY_SECRET,
            webhookSecret: RAZORPAY_WEBHOOK_SECRET,
          })
        : createSimulatorGateway(deps);
    built.set(deps, gateway);
  }
  return gateway;
}
