import { addOnLineTotalPaise } from '../../../shared/add-on-pricing.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import type { RouterOutputs } from '../../lib/trpc.ts';
import { CheckoutCard } from './checkout-card.tsx';

type AddOn = RouterOutputs['tickets']['options']['addOns'][number];
/** Variant id → how many the buyer chose. */
export type AddOnChoice = Record<string, number>;

interface Taxes {
  pricesPlusGst: boolean;
  intraState: boolean;
}

/** The add-ons a selection may carry: on sale for any type, or for one of the chosen types. */
export function addOnsFor(addOns: AddOn[], ticketTypeIds: string[]): AddOn[] {
  return addOns.filter(
    (a) => !a.ticketTypeIds?.length || a.ticketTypeIds.some((id) => ticketTypeIds.includes(id)),
  );
}

/** What the chosen add-ons add to the total, as the server will charge it (shared/add-on-pricing.ts). */
export function addOnsTotalPaise(addOns: AddOn[], choice: AddOnChoice, taxes: Taxes): number {
  let total = 0;
  for (const a of addOns) {
    for (const v of a.variants) {
      const quantity = choice[v.id] ?? 0;
      if (quantity > 0) total += addOnLineTotalPaise({ ...a, quantity }, taxes);
    }
  }
  return total;
}

/**
 * "Add-ons" beside the tickets (ADR 0041): a quantity per variant (a T-shirt per size), never more than
 * is left nor than the add-on's per-order maximum across its variants. The server prices and takes them
 * at Proceed; this only shows them.
 */
export function AddOnPicker({
  addOns,
  choice,
  onChange,
  taxes,
}: {
  addOns: AddOn[];
  choice: AddOnChoice;
  onChange: (choice: AddOnChoice) => void;
  taxes: Taxes;
}) {
  if (addOns.length === 0) return null;
  return (
    <CheckoutCard id="add-ons-heading" title="Add-ons">
      <ul className="mt-3 space-y-4 text-sm">
        {addOns.map((a) => {
          const chosen = a.variants.reduce((sum, v) => sum + (choice[v.id] ?? 0), 0);
          return (
            <li key={a.id}>
              <p className="font-semibold">
                {a.name}{' '}
                <span className="font-normal text-gray-700">
                  {formatPaiseExact(a.pricePaise)}
                  {taxes.pricesPlusGst ? ` + ${a.taxRatePercent}% GST` : ''}
                </span>
              </p>
              {a.description && <p className="text-gray-600">{a.description}</p>}
              <p className="text-gray-600">At most {a.maxPerOrder} per order</p>
              <div className="mt-1 flex flex-wrap gap-3">
                {a.variants.map((v) => {
                  const quantity = choice[v.id] ?? 0;
                  const max = Math.min(v.left, a.maxPerOrder - chosen + quantity);
                  const label = v.name ? `${a.name}, ${v.name}` : a.name;
                  return (
                    <label key={v.id} className="flex items-center gap-2">
                      <span>{v.name || 'Quantity'}</span>
                      <select
                        aria-label={`How many: ${label}`}
                        className="rounded border border-gray-300 px-2 py-1"
                        value={quantity}
                        disabled={v.left === 0}
                        onChange={(e) => onChange({ ...choice, [v.id]: Number(e.target.value) })}
                      >
                        {quantities(max).map((n) => (
                          <option key={n} value={n}>
                            {n}
                          </option>
                        ))}
                      </select>
                      {v.left === 0 && <span className="text-gray-600">Sold Out</span>}
                    </label>
                  );
                })}
              </div>
            </li>
          );
        })}
      </ul>
    </CheckoutCard>
  );
}

/** 0, 1, … max: the choices of one variant's quantity. */
function quantities(max: number): number[] {
  return Array.from({ length: Math.max(0, max) + 1 }, (_, n) => n);
}
