import { isValidGstinValue } from '../../../shared/gst-schemas.ts';
import { checkoutPriceBreakdown, feeTaxSplitFor } from '../../../shared/pricing.ts';
import { invoiceTaxableValuePaise, recipientAddressRequired } from '../../../shared/recipient-address.ts';
import type { RouterOutputs } from '../../lib/trpc.ts';
import { type AddOnChoice, addOnsFor, addOnsTotalPaise } from './add-on-picker.tsx';
import type { DiscountQuote } from './discount-code-field.tsx';
import type { BuyerDetails } from './use-buyer-details.ts';

export type CheckoutOptions = RouterOutputs['tickets']['options'];
export type CheckoutSlot = CheckoutOptions['dates'][number]['slots'][number];
/** One chosen ticket type and how many of it. */
export type SelectedLine = { type: CheckoutSlot['ticketTypes'][number]; quantity: number };

/**
 * What the checkout shows and Proceed sends, from what the buyer chose: the price (the server's discount
 * quote if a code applies), the add-ons on offer and chosen, whether the invoice needs the billing address,
 * and how the fee's GST splits.
 */
export function checkoutPrice({
  data,
  lines,
  discount,
  addOnChoice,
  details,
}: {
  data: CheckoutOptions;
  lines: SelectedLine[];
  discount: DiscountQuote | null;
  addOnChoice: AddOnChoice;
  details: Pick<BuyerDetails, 'buyerGstin' | 'state'>;
}) {
  // The server says how this event is taxed (data.taxes); Proceed charges with the same function. With a
  // discount code applied, the price is the server's quote (the client never prices a code itself).
  const listPrice = checkoutPriceBreakdown(
    lines.map((l) => ({
      pricePaise: l.type.pricePaise,
      quantity: l.quantity,
      personsPerTicket: l.type.personAllowedPerTicket,
    })),
    data.event.platformFeeRate,
    data.taxes,
  );
  const ticketPrice = discount?.price ?? listPrice;
  // Add-ons (ADR 0041): priced as the server will, added to the total beside the tickets (no fee on them).
  const addOnTaxes = {
    pricesPlusGst: data.taxes.admissionTaxRatePercent !== null,
    intraState: data.taxes.admissionIntraState,
  };
  const offeredAddOns = addOnsFor(
    data.addOns,
    lines.map((l) => l.type.id),
  );
  const addOnsPaise = addOnsTotalPaise(offeredAddOns, addOnChoice, addOnTaxes);
  const price = { ...ticketPrice, grandTotalPaise: ticketPrice.grandTotalPaise + addOnsPaise };
  const chosenAddOns = offeredAddOns
    .flatMap((a) => a.variants)
    .filter((v) => (addOnChoice[v.id] ?? 0) > 0)
    .map((v) => ({ variantId: v.id, quantity: addOnChoice[v.id]! }));
  // The billing address only when the GST invoice must show it: the server's rule on the invoice's
  // taxable value (tickets after any code's discount, and add-ons), decided again at Proceed.
  const addressRequired = recipientAddressRequired({
    buyerGstin: details.buyerGstin,
    taxableValuePaise: invoiceTaxableValuePaise(
      lines.map((l) => ({
        pricePaise: l.type.pricePaise,
        quantity: l.quantity,
        personsPerTicket: l.type.personAllowedPerTicket,
        discountPerTicketPaise:
          discount?.lines.find((d) => d.ticketTypeId === l.type.id)?.discountPerTicketPaise ?? 0,
      })),
      offeredAddOns.flatMap((a) =>
        a.variants
          .filter((v) => (addOnChoice[v.id] ?? 0) > 0)
          .map((v) => ({
            pricePaise: a.pricePaise,
            taxRatePercent: a.taxRatePercent,
            quantity: addOnChoice[v.id]!,
          })),
      ),
      data.taxes,
    ),
  });

  // The fee invoice's rule (shared/pricing.ts feeTaxSplitFor): the GSTIN's state, else the state chosen.
  const typedGstin = details.buyerGstin.trim().toUpperCase();
  const buyerGstin = isValidGstinValue(typedGstin) ? typedGstin : null;
  const feeSplit =
    data.taxes.feeSupplierState && (details.state || buyerGstin)
      ? feeTaxSplitFor(data.taxes.feeSupplierState, { state: details.state, buyerGstin })
      : null;

  return {
    price,
    discountCode: discount?.code,
    addOnTaxes,
    offeredAddOns,
    addOnsPaise,
    chosenAddOns,
    addressRequired,
    feeSplit,
  };
}
