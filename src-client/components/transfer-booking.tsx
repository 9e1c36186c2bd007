import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { TransferRecipientFields } from '../../shared/transfer-schemas.ts';
import { messageOf } from '../lib/auth.ts';
import { showServerErrors } from '../lib/server-field-errors.ts';
import { trpc } from '../lib/trpc.ts';
import { FormError, fieldBinder, SubmitButton, TextField } from './auth-fields.tsx';
import Modal from './modal.tsx';

/**
 * On an upcoming booking (My Bookings): "Transfer ticket" (a form for the recipient's name, e-mail and
 * mobile), or the transfer waiting to be accepted with "Cancel transfer", or why it cannot be
 * transferred. The server decides which (transfers.status) and checks everything again.
 */
export function TransferBookingSection({ bookingId, eventName }: { bookingId: string; eventName: string }) {
  const status = trpc.transfers.status.useQuery({ bookingId });
  const utils = trpc.useUtils();
  const [open, setOpen] = useState(false);
  const refresh = () =>
    Promise.all([
      utils.transfers.status.invalidate({ bookingId }),
      utils.bookings.cancellationQuote.invalidate(),
    ]);
  const cancel = trpc.transfers.cancel.useMutation({ onSuccess: refresh });
  if (!status.data) return null;
  const s = status.data;
  return (
    <div className="mt-3 border-t border-gray-100 pt-3 text-sm" data-testid="transfer-section">
      {s.state === 'pending' ? (
        <>
          <p className="text-gray-900">
            <span className="mr-2 rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-900">
              Transfer pending
            </span>
            Sent to <strong>{s.toName}</strong> ({s.toEmail}). Your QR code works until they accept.
          </p>
          <FormError message={cancel.error ? messageOf(cancel.error) : null} />
          <button
            type="button"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate({ bookingId })}
            className="mt-2 rounded-md border border-gray-300 px-4 py-2 font-semibold text-gray-800 hover:bg-gray-50 disabled:opacity-60"
          >
            {cancel.isPending ? 'Cancelling...' : 'Cancel transfer'}
          </button>
        </>
      ) : s.state === 'available' ? (
        <>
          <p className="text-gray-700">
            Can't go? Give this booking to someone else. They get a new QR code; yours stops working.
          </p>
          <button
            type="button"
            onClick={() => setOpen(true)}
            className="mt-2 rounded-md border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50"
          >
            Transfer ticket
          </button>
          <Modal
            open={open}
            onOpenChange={setOpen}
            title="Transfer this booking"
            description={eventName}
            className="w-[calc(100%-1.5rem)] max-w-md p-6"
            headerClassName="flex items-start justify-between gap-4"
          >
            <TransferForm
              bookingId={bookingId}
              onSent={async () => {
                setOpen(false);
                await refresh();
              }}
            />
          </Modal>
        </>
      ) : (
        <p className="text-gray-700">{s.reason}</p>
      )}
    </div>
  );
}

function TransferForm({ bookingId, onSent }: { bookingId: string; onSent: () => Promise<void> }) {
  const form = useForm<TransferRecipientFields>({
    resolver: zodResolver(TransferRecipientFields),
    defaultValues: { name: '', email: '', mobile: '' },
  });
  const start = trpc.transfers.start.useMutation({
    onSuccess: onSent,
    onError: (error) => {
      // A refusal about the whole transfer shows below the form (start.error), not on a field.
      showServerErrors(form, error, ['name', 'email', 'mobile']);
    },
  });
  const field = fieldBinder(form, () => start.reset());
  return (
    <form
      noValidate
      className="mt-4 space-y-4"
      onSubmit={form.handleSubmit((values) => start.mutate({ bookingId, ...values }))}
    >
      <TextField label="Their name" autoComplete="off" maxLength={100} {...field('name')} />
      <TextField label="Their email" type="email" autoComplete="off" maxLength={254} {...field('email')} />
      <TextField
        label="Their mobile (optional)"
        type="tel"
        inputMode="tel"
        autoComplete="off"
        maxLength={20}
        {...field('mobile')}
      />
      <p className="text-sm text-gray-700">
        We email them a link. When they accept with that address, the booking moves to their account with a
        new QR code and yours stops working. The GST invoice stays with you.
      </p>
      <FormError message={start.error ? messageOf(start.error) : null} />
      <SubmitButton busy={start.isPending} busyText="Sending...">
        Send transfer
      </SubmitButton>
    </form>
  );
}
