interface InvoiceState {
  kind: 'admission' | 'platform_fee';
  creditNoteNumber: string | null;
}

/**
 * Per kind, the invoice in force, from a booking's invoices oldest first (invoices.forBooking). A re-issue
 * (the buyer's GSTIN added) credits the invoice it replaces, so that is the one without a credit note;
 * once the booking is cancelled, the latest, credited one. A cancellation that keeps the convenience fee
 * credits the admission invoice only, and the fee invoice stays in force.
 */
export function currentInvoices<T extends InvoiceState>(all: readonly T[]): T[] {
  return (['admission', 'platform_fee'] as const).flatMap((kind) => {
    const ofKind = all.filter((i) => i.kind === kind);
    const open = ofKind.filter((i) => !i.creditNoteNumber);
    return open.length > 0 ? open : ofKind.slice(-1);
  });
}
