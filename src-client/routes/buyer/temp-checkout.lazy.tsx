import { createLazyRoute } from '@tanstack/react-router';
import { useState } from 'react';
import {
  loadRazorpayScript,
  openRazorpayWindow,
  type PaymentCallbacks,
  type PaymentWindowOptions,
} from '../../components/checkout/razorpay-window.ts';
import { SimulatorDialog } from '../../components/checkout/simulator-dialog.tsx';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_buyer/temp-checkout')({ component: TempCheckoutPage });

/** Spec §9 test payment: 1 000 000 paise in INR, description 'Ticket Booking', sample contact values. */
const TEST_AMOUNT_PAISE = 1_000_000;
const SAMPLE_PREFILL = { name: 'Test User', email: 'test.user@example.com', contact: '9999999999' };

/**
 * The test payment page (spec §2, §7): one Pay button that opens an order through the app's own
 * /api/create-order and the configured gateway, and reports the outcome in alerts.
 */
function TempCheckoutPage() {
  const config = trpc.payments.config.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY });
  const [simulated, setSimulated] = useState<PaymentWindowOptions | null>(null);

  const callbacks: PaymentCallbacks = {
    onSuccess: (result) => {
      setSimulated(null);
      alert(`Payment successful! Payment ID: ${result.razorpay_payment_id}`);
    },
    onFailure: (error) => {
      setSimulated(null);
      alert(
        [
          `Code: ${error.code ?? ''}`,
          `Description: ${error.description ?? ''}`,
          `Source: ${error.source ?? ''}`,
          `Step: ${error.step ?? ''}`,
          `Reason: ${error.reason ?? ''}`,
          `Order ID: ${error.metadata?.order_id ?? ''}`,
          `Payment ID: ${error.metadata?.payment_id ?? ''}`,
        ].join('\n'),
      );
    },
    onDismiss: () => setSimulated(null),
  };

  const pay = async () => {
    if (!config.data) return;
    const res = await fetch('/api/create-order', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: TEST_AMOUNT_PAISE, currency: 'INR' }),
    });
    const body = (await res.json()) as { order_id?: string; error?: { message: string } };
    if (!res.ok || !body.order_id) {
      console.error('create-order failed', body);
      return;
    }
    const options: PaymentWindowOptions = {
      keyId: config.data.keyId,
      orderId: body.order_id,
      amountPaise: TEST_AMOUNT_PAISE,
      currency: 'INR',
      name: 'Jalsa',
      description: 'Ticket Booking',
      prefill: SAMPLE_PREFILL,
      notes: {},
    };
    if (config.data.gateway === 'simulator') return setSimulated(options);
    if (!(await loadRazorpayScript())) return alert('Razorpay SDK failed to load. Are you online?');
    openRazorpayWindow(options, callbacks);
  };

  return (
    <section className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">Razorpay Payment</h1>
      <button
        type="button"
        onClick={pay}
        disabled={!config.data}
        className="mt-6 rounded-md bg-brand-600 px-8 py-3 text-lg font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        Pay
      </button>
      {simulated && <SimulatorDialog options={simulated} callbacks={callbacks} />}
    </section>
  );
}
