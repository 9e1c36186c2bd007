import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { addBuyerGstinSchema } from '../../shared/gst-schemas.ts';
import { formatPaiseExact } from '../../shared/money.ts';
import { messageOf } from '../lib/auth.ts';
import { currentInvoices } from '../lib/current-invoices.ts';
import { trpc } from '../lib/trpc.ts';
import { FormError, fieldBinder, SubmitButton, TextField } from './auth-fields.tsx';

const LABELS = { admission: 'GST invoice', platform_fee: 'Convenience fee invoice' } as const;
const CREDIT_LABELS = { admission: 'Credit note', platform_fee: 'Convenience fee credit note' } as const;

/**
 * Issue 16: download links for a booking's current invoices (none for bookings of organisers without a
 * tax profile), their credit notes, and, while the invoice's month lasts, a form to have it re-issued
 * with a GSTIN.
 */
export function BookingInvoiceLinks({ bookingId }: { bookingId: string }) {
  const invoices = trpc.invoices.forBooking.useQuery({ bookingId }, { staleTime: 60_000 });
  const [adding, setAdding] = useState(false);
  const all = invoices.data ?? [];
  const current = currentInvoices(all);
  if (current.length === 0) return null;
  // Something must be left to re-issue: part refunds' credit notes may have credited every invoice whole.
  const canAddGstin =
    current.every((i) => !i.buyerGstin && !i.creditNoteNumber) &&
    current.some((i) => i.totalPaise > (i.partCreditNotes ?? []).reduce((s, n) => s + n.totalPaise, 0));
  return (
    <>
      {current.map((invoice) => (
        <a
          key={invoice.id}
          href={`/api/invoices/${encodeURIComponent(invoice.id)}.pdf`}
          download
          className="rounded-md border border-gray-300 px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50"
          aria-label={`Download ${LABELS[invoice.kind]} ${invoice.number}`}
        >
          {LABELS[invoice.kind]}
        </a>
      ))}
      {/* A cancelled booking's invoices in force are credited: their credit notes download the same way. */}
      {current.map(
        (invoice) =>
          invoice.creditNoteId && (
            <a
              key={invoice.creditNoteId}
              href={`/api/invoices/credit-notes/${encodeURIComponent(invoice.creditNoteId)}.pdf`}
              download
              className="rounded-md border border-gray-300 px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50"
              aria-label={`Download ${CREDIT_LABELS[invoice.kind]} ${invoice.creditNoteNumber}`}
            >
              {CREDIT_LABELS[invoice.kind]}
            </a>
          ),
      )}
      {/* Part refunds ("Cancel some tickets", issue 36 item 12) each have a credit note of their own, on
          whichever invoice they credit (also one since replaced): named by number and amount, since a
          booking may have several. */}
      {all.flatMap((invoice) =>
        (invoice.partCreditNotes ?? []).map((note) => {
          const label = `${CREDIT_LABELS[invoice.kind]} ${note.number} for ${formatPaiseExact(note.totalPaise)}`;
          return (
            <a
              key={note.id}
              href={`/api/invoices/credit-notes/${encodeURIComponent(note.id)}.pdf`}
              download
              className="rounded-md border border-gray-300 px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50"
              aria-label={`Download ${label}`}
            >
              {label}
            </a>
          );
        }),
      )}
      {canAddGstin && !adding && (
        <button
          type="button"
          onClick={() => setAdding(true)}
          className="rounded-md px-4 py-2 text-sm font-semibold text-brand-700 hover:underline"
        >
          Add GSTIN
        </button>
      )}
      {canAddGstin && adding && <AddGstinForm bookingId={bookingId} onDone={() => setAdding(false)} />}
    </>
  );
}

function AddGstinForm({ bookingId, onDone }: { bookingId: string; onDone: () => void }) {
  const utils = trpc.useUtils();
  const add = trpc.invoices.addBuyerGstin.useMutation({
    onSuccess: () => utils.invoices.forBooking.invalidate({ bookingId }),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<z.input<typeof addBuyerGstinSchema>, unknown, z.output<typeof addBuyerGstinSchema>>({
    resolver: zodResolver(addBuyerGstinSchema),
    defaultValues: { bookingId, buyerGstin: '', buyerLegalName: '', buyerAddress: '' },
  });
  const field = fieldBinder(form, () => setFormError(null));
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync(values);
      onDone();
    } catch (error) {
      setFormError(messageOf(error));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="w-full space-y-3 rounded-lg border border-gray-200 p-3">
      <p className="text-sm text-gray-700">
        The invoice is re-issued with your GSTIN (until the end of the month it was issued in).
      </p>
      <TextField label="GSTIN" autoCapitalize="characters" maxLength={15} {...field('buyerGstin')} />
      <TextField label="Legal name (as registered for GST)" maxLength={120} {...field('buyerLegalName')} />
      <TextField
        label="Billing address"
        maxLength={300}
        autoComplete="street-address"
        {...field('buyerAddress')}
      />
      <FormError message={formError} />
      <SubmitButton busy={form.formState.isSubmitting} busyText="Saving...">
        Re-issue invoice
      </SubmitButton>
    </form>
  );
}
