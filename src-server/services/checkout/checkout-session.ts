import { admissionTaxOf } from '../../../shared/pricing.ts';
import type { Hold } from '../inventory/holds.ts';
import type { PaymentGateway } from '../payments/gateway.ts';
import { buildCheckoutNotes } from './order-request.ts';

/** Shown in the checkout window (spec §7 'a product name'). */
const CHECKOUT_PRODUCT_NAME = 'Jalsa';

/** Everything the browser needs to open the payment window for a hold. */
export interface CheckoutSession {
  holdId: string;
  gateway: 'razorpay' | 'simulator';
  keyId: string;
  orderId: string;
  amountPaise: number;
  currency: 'INR';
  name: string;
  description: string;
  prefill: { name: string; email: string; contact: string };
  notes: Record<string, string>;
  /** The discount code applied (as the organiser wrote it), or null. */
  discountCode: string | null;
  /** What it took off the tickets, before tax; `subtotalPaise` is after it. */
  discountPaise: number;
  subtotalPaise: number;
  /** Admission GST added on top of tax-exclusive prices (0 when prices include it). */
  admissionTaxPaise: number;
  /** Add-ons sold with the tickets, GST included (ADR 0041); 0 without. */
  addOnsPaise: number;
  feePaise: number;
  /** GST on the fee; 0 when the platform is not registered (`feeTaxRatePercent` 0: not charged). */
  igstPaise: number;
  feeTaxRatePercent: number;
  /** When the payment session ends (the countdown), and when the seats go back to sale. */
  sessionExpiresAt: string;
  expiresAt: string;
}

/** What a session says about the sale beside the hold's own amounts. */
export interface SessionSale {
  eventId: string;
  eventName: string;
  slotId: string;
  lines: { ticketTypeId: string; name: string; quantity: number }[];
  details: { name: string; email: string; phone: string };
  /**
   * The discount code the hold was priced with (issue 40; as the organiser wrote it) and what it took off
   * the tickets, before tax; null without one (a waiting-list offer never has one).
   */
  discount: { code: string; discountPaise: number } | null;
  /** The add-ons' amount, GST included (ADR 0041); absent: none (a waiting-list offer). */
  addOnsPaise?: number;
  feeTaxRatePercent: number;
}

/**
 * The payment window's session for a hold and its gateway order: Proceed's fresh hold and a waiting-list
 * offer's hold open the same window from the same facts. The amounts are the hold's, priced by the
 * server when the seats were held; the ticket GST is read back from them (`admissionTaxOf`).
 */
export function checkoutSessionOf(
  hold: Omit<Hold, 'discountPaise'>,
  order: { gateway: Pick<PaymentGateway, 'name' | 'keyId'>; orderId: string },
  sale: SessionSale,
): CheckoutSession {
  const addOnsPaise = sale.addOnsPaise ?? 0;
  return {
    holdId: hold.id,
    gateway: order.gateway.name,
    keyId: order.gateway.keyId,
    orderId: order.orderId,
    amountPaise: hold.totalPaise,
    currency: 'INR',
    name: CHECKOUT_PRODUCT_NAME,
    description: `${sale.eventName} - Ticket Booking`,
    prefill: { name: sale.details.name, email: sale.details.email, contact: sale.details.phone },
    notes: buildCheckoutNotes(sale.eventId, sale.slotId, sale.lines),
    discountCode: sale.discount?.code ?? null,
    discountPaise: sale.discount?.discountPaise ?? 0,
    subtotalPaise: hold.subtotalPaise,
    admissionTaxPaise: admissionTaxOf({ ...hold, addOnsPaise }),
    addOnsPaise,
    feePaise: hold.feePaise,
    igstPaise: hold.igstPaise,
    feeTaxRatePercent: sale.feeTaxRatePercent,
    sessionExpiresAt: hold.sessionExpiresAt,
    expiresAt: hold.expiresAt,
  };
}
