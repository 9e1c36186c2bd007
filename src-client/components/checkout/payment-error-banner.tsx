import type { ReactNode, Ref } from 'react';

/**
 * The dismissible 'Payment Error:' banner (spec §2, §8); `items` lists every failed checkout rule. It is
 * not a live region itself: the checkout keeps one mounted live region around it, which screen readers
 * announce more reliably than a region inserted with its text.
 */
export function PaymentErrorBanner({
  message,
  items,
  onDismiss,
  tone = 'error',
  action,
  ref,
}: {
  message: string;
  items?: string[];
  onDismiss: () => void;
  /** 'notice' is the buyer's own doing (they closed the payment window): neutral, no 'Payment Error:'. */
  tone?: 'error' | 'notice';
  /** Something the buyer can do about it, under the message (e.g. resend the verification e-mail). */
  action?: ReactNode;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div
      ref={ref}
      data-testid={tone === 'error' ? 'payment-error' : 'payment-notice'}
      className={`relative rounded-lg border p-4 pr-10 text-sm ${
        tone === 'error'
          ? 'border-red-200 bg-red-50 text-red-800'
          : 'border-gray-200 bg-gray-50 text-gray-800'
      }`}
    >
      <p>
        {tone === 'error' && <strong>Payment Error: </strong>}
        {message}
      </p>
      {items && items.length > 0 && (
        <ul className="mt-2 list-disc pl-5">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
      {action}
      <button
        type="button"
        onClick={onDismiss}
        aria-label={tone === 'error' ? 'Dismiss payment error' : 'Dismiss message'}
        className="absolute right-2 top-2 rounded p-1 hover:bg-black/5"
      >
        <span aria-hidden="true">✕</span>
      </button>
    </div>
  );
}
