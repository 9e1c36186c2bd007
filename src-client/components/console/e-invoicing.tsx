import { formatLongDate } from '../../../shared/dates.ts';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';

/**
 * "E-invoicing applies to me" (issue 36): the organiser's setting, and each B2B invoice the IRP has not
 * registered yet, with the IRP's message and a retry once the automatic retries have stopped; the same
 * for credit notes on those invoices (registered as document type CRN).
 */
export function EInvoicingSettings({ registered }: { registered: boolean }) {
  const utils = trpc.useUtils();
  const state = trpc.invoices.eInvoicing.useQuery(undefined, { retry: false });
  const set = trpc.invoices.setEInvoicing.useMutation({
    onSuccess: () => utils.invoices.eInvoicing.invalidate(),
  });
  const retry = trpc.invoices.retryEInvoice.useMutation({
    onSuccess: () => utils.invoices.eInvoicing.invalidate(),
  });
  if (!state.data) return null;
  const { applies, since, aatoTenCroreOrMore, providerConfigured, notRegistered, creditNotesNotRegistered } =
    state.data;
  // One shared schema (shared/e-invoicing-schemas.ts) for both answers; the server refuses turning it
  // on without a GSTIN, or without a PIN code in the profile's address, with a message naming the field.
  const change = (setting: { applies: boolean; aatoTenCroreOrMore?: boolean }) => set.mutate(setting);
  return (
    <section aria-labelledby="e-invoicing-heading" className="rounded-2xl border border-gray-200 p-5 sm:p-6">
      <h2 id="e-invoicing-heading" className="text-xl font-bold">
        E-invoicing
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        If your aggregate turnover is above the e-invoicing threshold, every tax invoice to a buyer with a
        GSTIN needs an IRN from the Invoice Registration Portal within its reporting window. Jalsa sends them
        for you and prints the IRN and signed QR code on the invoice.
      </p>
      <label className="mt-3 flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={applies}
          disabled={!registered || set.isPending}
          onChange={(e) => change({ applies: e.target.checked })}
        />
        E-invoicing applies to me
      </label>
      <label className="mt-2 flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={aatoTenCroreOrMore}
          disabled={!registered || set.isPending}
          onChange={(e) => change({ applies, aatoTenCroreOrMore: e.target.checked })}
        />
        My aggregate annual turnover is ₹10 crore or more
      </label>
      <p className="mt-1 text-xs text-gray-500">
        From ₹10 crore the IRP accepts an invoice only within 30 days of its date; below that there is no such
        limit. The address in your profile above must include its 6-digit PIN code.
      </p>
      {!registered && <p className="mt-1 text-xs text-gray-500">Add your GSTIN above first.</p>}
      {applies && since && (
        <p className="mt-1 text-xs text-gray-500">
          B2B invoices issued since {formatLongDate(since)} are registered.
        </p>
      )}
      {applies && !providerConfigured && (
        <p role="status" className="mt-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          This site has no connection to the IRP yet: your B2B invoices wait until its operator sets one up.
        </p>
      )}
      {set.error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {messageOf(set.error)}
        </p>
      )}
      <EInvoiceQueue
        notRegistered={notRegistered}
        creditNotesNotRegistered={creditNotesNotRegistered}
        retrying={retry.isPending}
        retryError={retry.error}
        onRetry={(target) => retry.mutate(target)}
      />
    </section>
  );
}

type EInvoicingState = RouterOutputs['invoices']['eInvoicing'];

/**
 * The invoices and credit notes of one supplier the IRP has not registered yet, each with its state and
 * the IRP's message, and "Try again" once the automatic retries have stopped: the organiser's section
 * above and the admin's for the platform's own documents show the same list.
 */
export function EInvoiceQueue({
  notRegistered,
  creditNotesNotRegistered,
  retrying,
  retryError,
  onRetry,
}: Pick<EInvoicingState, 'notRegistered' | 'creditNotesNotRegistered'> & {
  retrying: boolean;
  /** A "Try again" the server refused, shown above the list (the organiser's and the admin's alike). */
  retryError: unknown;
  onRetry: (target: { invoiceId: string } | { creditNoteId: string }) => void;
}) {
  return (
    <>
      {retryError != null && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {messageOf(retryError)}
        </p>
      )}
      {notRegistered.length > 0 && (
        <div className="mt-4">
          <h3 className="text-sm font-semibold">Invoices without an IRN</h3>
          <ul className="mt-2 space-y-2 text-sm">
            {notRegistered.map((r) => (
              <li key={r.invoiceId} className="rounded-md border border-gray-200 p-3">
                <span className="font-medium">{r.number}</span> of {formatLongDate(r.issuedAt)}:{' '}
                {r.status === 'pending' ? 'waiting to be sent' : 'not registered'}
                {r.lastError && <span className="block text-red-700">{r.lastError}</span>}
                {r.status === 'failed' &&
                  (r.nextAttemptAt ? (
                    <span className="block text-xs text-gray-500">
                      Tried {r.attempts} times; trying again soon.
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="mt-1 rounded-md border border-gray-300 px-3 py-1 text-xs font-semibold"
                      disabled={retrying}
                      aria-label={`Try again: ${r.number}`}
                      onClick={() => onRetry({ invoiceId: r.invoiceId })}
                    >
                      Try again
                    </button>
                  ))}
              </li>
            ))}
          </ul>
        </div>
      )}
      {creditNotesNotRegistered.length > 0 && (
        <div className="mt-4">
          <h3 className="text-sm font-semibold">Credit notes without an IRN</h3>
          <ul className="mt-2 space-y-2 text-sm">
            {creditNotesNotRegistered.map((r) => (
              <li key={r.creditNoteId} className="rounded-md border border-gray-200 p-3">
                <span className="font-medium">{r.number}</span> of {formatLongDate(r.issuedAt)} (on invoice{' '}
                {r.invoiceNumber}):{' '}
                {r.waitingForInvoice
                  ? 'waiting for its invoice to get an IRN'
                  : r.status === 'pending'
                    ? 'waiting to be sent'
                    : 'not registered'}
                {r.lastError && <span className="block text-red-700">{r.lastError}</span>}
                {r.status === 'failed' &&
                  (r.nextAttemptAt ? (
                    <span className="block text-xs text-gray-500">
                      Tried {r.attempts} times; trying again soon.
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="mt-1 rounded-md border border-gray-300 px-3 py-1 text-xs font-semibold"
                      disabled={retrying}
                      aria-label={`Try again: ${r.number}`}
                      onClick={() => onRetry({ creditNoteId: r.creditNoteId })}
                    >
                      Try again
                    </button>
                  ))}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
