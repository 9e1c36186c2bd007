import { formatLongDate } from '../../../shared/dates.ts';
import { trpc } from '../../lib/trpc.ts';
import { EInvoiceQueue } from './e-invoicing.tsx';

/**
 * The platform's own e-invoicing (PLATFORM_E_INVOICING_SINCE): its B2B fee invoices and their credit
 * notes the IRP has not registered yet, with the IRP's messages and "Try again", as an organiser sees
 * theirs. The setting itself is the server's, so it is only shown here.
 */
export function PlatformEInvoicing() {
  const utils = trpc.useUtils();
  const state = trpc.admin.eInvoicing.useQuery();
  const retry = trpc.admin.retryEInvoice.useMutation({
    onSuccess: () => utils.admin.eInvoicing.invalidate(),
  });
  if (!state.data) return null;
  const { applies, since, providerConfigured, notRegistered, creditNotesNotRegistered } = state.data;
  const nothingWaiting = notRegistered.length === 0 && creditNotesNotRegistered.length === 0;
  return (
    <section aria-labelledby="platform-e-invoicing-heading" className="max-w-xl">
      <h2 id="platform-e-invoicing-heading" className="text-xl font-bold text-gray-900">
        Platform e-invoicing
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        {applies && since
          ? `The platform's convenience-fee invoices to buyers with a GSTIN issued since ${formatLongDate(since)}, and their credit notes, are registered with the IRP.`
          : "E-invoicing is off for the platform's own invoices (set PLATFORM_E_INVOICING_SINCE on the server to turn it on)."}
      </p>
      {applies && !providerConfigured && (
        <p role="status" className="mt-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          This server has no connection to the IRP (EINVOICE_IRP_URL and EINVOICE_IRP_TOKEN): the platform's
          B2B fee invoices wait until it is set up.
        </p>
      )}
      {applies && nothingWaiting && (
        <p className="mt-2 text-sm text-gray-700">Nothing is waiting for an IRN.</p>
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
