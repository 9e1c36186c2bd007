import { formatPaiseExact } from '../../../shared/money.ts';

/** On a phone the total and Proceed stay on screen, as on ticket selection. */
export function PhoneProceedBar({ grandTotalPaise, ...proceed }: ProceedProps & { grandTotalPaise: number }) {
  return (
    <div
      data-testid="checkout-bar"
      className="fixed inset-x-0 bottom-0 z-20 border-t border-gray-200 bg-white shadow-[0_-2px_8px_rgba(0,0,0,0.06)] md:hidden"
    >
      <div className="flex items-center justify-between gap-4 px-4 py-3">
        <div>
          <p className="text-xs text-gray-600">Grand Total</p>
          <p className="text-lg font-bold" data-testid="bar-grand-total">
            {formatPaiseExact(grandTotalPaise)}
          </p>
        </div>
        <ProceedButton {...proceed} className="px-6" />
      </div>
    </div>
  );
}

type ProceedProps = { text: string; disabled: boolean; onProceed: () => void };

/** Proceed: beside the summary on a wide screen, in the bar on a phone. */
export function ProceedButton({
  text,
  disabled,
  onProceed,
  className,
}: ProceedProps & { className: string }) {
  return (
    <button
      type="button"
      onClick={onProceed}
      disabled={disabled}
      className={`${className} rounded-md bg-brand-600 py-3 text-lg font-semibold text-white hover:bg-brand-700 disabled:opacity-70`}
    >
      {text}
    </button>
  );
}
