import type { Ref } from 'react';

/**
 * The dismissible 'Payment Error:' banner (spec §2, §8); `items` lists every failed checkout rule. It is
 * not a live region itself: the checkout keeps one mounted live region around it, which screen readers
 * announce more reliably than a region inserted with its text.
 */
export function PaymentErrorBanner({
  message,
  items,
  onDismiss,
  ref,
}: {
  message: string;
  items?: string[];
  onDismiss: () => void;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div
      ref={ref}
      data-testid="payment-error"
      className="relative rounded-lg border border-red-200 bg-red-50 p-4 pr-10 text-sm text-red-800"
    >
      <p>
        <strong>Payment Error:</strong> {message}
      </p>
      {items && items.length > 0 && (
        <ul className="mt-2 list-disc pl-5">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss payment error"
        className="absolute right-2 top-2 rounded p-1 text-red-800 hover:bg-red-100"
      >
        <span aria-hidden="true">✕</span>
      </button>
    </div>
  );
}
