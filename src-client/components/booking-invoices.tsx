import { trpc } from '../lib/trpc.ts';

const LABELS = { admission: 'GST invoice', platform_fee: 'Convenience fee invoice' } as const;

/** Issue 16: download links for a booking's invoices (none for bookings of organisers without a tax profile). */
export function BookingInvoiceLinks({ bookingId }: { bookingId: string }) {
  const invoices = trpc.invoices.forBooking.useQuery({ bookingId }, { staleTime: 60_000 });
  if (!invoices.data?.length) return null;
  return (
    <>
      {invoices.data.map((invoice) => (
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
    </>
  );
}
