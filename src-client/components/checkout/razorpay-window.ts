/**
 * Razorpay's checkout window (https://checkout.razorpay.com/v1/checkout.js), loaded on demand and
 * opened with the spec §7 options. The callbacks mirror the simulator dialog's.
 */
export interface PaymentWindowOptions {
  keyId: string;
  orderId: string;
  amountPaise: number;
  currency: string;
  name: string;
  description: string;
  prefill: { name: string; email: string; contact: string };
  notes: Record<string, string>;
  /** Seconds until Razorpay closes the window itself (the spec's 300 000 ms session). */
  timeoutSeconds?: number;
}

export interface PaymentSuccess {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

export interface PaymentFailure {
  code?: string;
  description?: string;
  source?: string;
  step?: string;
  reason?: string;
  metadata?: { order_id?: string; payment_id?: string };
}

export interface PaymentCallbacks {
  onSuccess: (result: PaymentSuccess) => void;
  onFailure: (error: PaymentFailure) => void;
  onDismiss: () => void;
}

interface RazorpayInstance {
  open: () => void;
  close?: () => void;
  on: (event: 'payment.failed', handler: (response: { error: PaymentFailure }) => void) => void;
}
type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayInstance;

const SCRIPT_URL = 'https://checkout.razorpay.com/v1/checkout.js';
let loading: Promise<boolean> | null = null;

/** Loads Razorpay's script once; false when it cannot be loaded (offline, blocked). */
export function loadRazorpayScript(): Promise<boolean> {
  if ((window as { Razorpay?: RazorpayConstructor }).Razorpay) return Promise.resolve(true);
  loading ??= new Promise<boolean>((resolve) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => resolve(true);
    script.onerror = () => {
      loading = null;
      script.remove();
      resolve(false);
    };
    document.body.appendChild(script);
  });
  return loading;
}

/**
 * Opens the window. Spec §4: besides Razorpay's own dismiss event, a poll every second for up to 30 s
 * notices a window that vanished without telling anyone and treats it as cancelled.
 */
export function openRazorpayWindow(options: PaymentWindowOptions, callbacks: PaymentCallbacks): () => void {
  const Razorpay = (window as { Razorpay?: RazorpayConstructor }).Razorpay;
  if (!Razorpay) throw new Error('Razorpay is not loaded');
  let settled = false;
  const settle =
    <T>(fn: (arg: T) => void) =>
    (arg: T) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      fn(arg);
    };
  const instance = new Razorpay({
    key: options.keyId,
    amount: options.amountPaise,
    currency: options.currency,
    name: options.name,
    description: options.description,
    order_id: options.orderId,
    prefill: options.prefill,
    notes: options.notes,
    timeout: options.timeoutSeconds,
    theme: { color: '#e11d48' },
    handler: settle(callbacks.onSuccess),
    modal: { ondismiss: settle(() => callbacks.onDismiss()) },
  });
  instance.on('payment.failed', (response) => settle(callbacks.onFailure)(response.error));
  instance.open();

  let checks = 0;
  const poll = setInterval(() => {
    checks += 1;
    if (checks > 30) return clearInterval(poll);
    if (checks > 2 && !document.querySelector('.razorpay-container'))
      settle(() => callbacks.onDismiss())(undefined);
  }, 1000);
  return () => {
    settled = true;
    clearInterval(poll);
    instance.close?.();
  };
}
