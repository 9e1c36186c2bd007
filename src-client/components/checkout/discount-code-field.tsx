import { useEffect, useRef, useState } from 'react';
import { MAX_CODE_LENGTH } from '../../../shared/discount-schemas.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { CheckoutCard } from './checkout-card.tsx';

export type DiscountQuote = RouterOutputs['payments']['quoteDiscount'];

/**
 * Issue 40: "Apply code". The server prices the selection with the code (payments.quoteDiscount) and
 * the checkout only shows its answer: the discount and the new total, or why the code is refused (one
 * message per reason, shared/discount-schemas.ts). Proceed sends the code and is priced again.
 */
export function DiscountCodeField({
  request,
  applied,
  onApplied,
  initialCode,
}: {
  request: {
    eventId: string;
    selectedSlot: string;
    selectedTickets: { ticketTypeId: string; quantity: number }[];
  };
  applied: DiscountQuote | null;
  onApplied: (quote: DiscountQuote | null) => void;
  /** An access code from the event link (ADR 0038): applied once, when the checkout opens. */
  initialCode?: string;
}) {
  const utils = trpc.useUtils();
  const [code, setCode] = useState(initialCode ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const applyCode = async (value: string) => {
    setBusy(true);
    setError(null);
    try {
      onApplied(await utils.payments.quoteDiscount.fetch({ ...request, discountCode: value }));
    } catch (err) {
      onApplied(null);
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const apply = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return setError('Enter a code');
    await applyCode(code.trim());
  };
  // Once per checkout: a hidden type chosen with the code is held only with it, so Proceed must send it.
  const appliedInitial = useRef(false);
  useEffect(() => {
    if (!initialCode || appliedInitial.current) return;
    appliedInitial.current = true;
    void applyCode(initialCode);
  });

  return (
    <CheckoutCard id="discount-code-heading" title="Discount code">
      {applied ? (
        <p className="mt-3 flex items-center justify-between gap-2 text-sm" data-testid="discount-applied">
          <span>
            <span className="font-mono font-semibold">{applied.code}</span> applied
            {/* An access code alone changes no price (ADR 0038). */}
            {applied.discountPaise > 0 && `: −${formatPaiseExact(applied.discountPaise)}`}
          </span>
          <button
            type="button"
            className="font-semibold underline"
            onClick={() => {
              onApplied(null);
              setCode('');
            }}
          >
            Remove
          </button>
        </p>
      ) : (
        <form onSubmit={apply} noValidate className="mt-3 flex gap-2">
          <label htmlFor="discount-code" className="sr-only">
            Discount code
          </label>
          <input
            id="discount-code"
            value={code}
            maxLength={MAX_CODE_LENGTH}
            autoCapitalize="characters"
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'discount-code-error' : undefined}
            onChange={(e) => {
              setCode(e.target.value);
              setError(null);
            }}
            className={`min-w-0 flex-1 rounded-lg border px-3 py-2 ${error ? 'border-red-500' : 'border-gray-300'}`}
          />
          <button
            type="submit"
            disabled={busy}
            className="rounded-lg bg-gray-900 px-4 py-2 text-sm font-semibold text-white disabled:opacity-60"
          >
            {busy ? 'Applying...' : 'Apply code'}
          </button>
        </form>
      )}
      {error && (
        <p id="discount-code-error" role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </CheckoutCard>
  );
}
