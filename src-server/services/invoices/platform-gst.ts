import type { Env } from '../../env.ts';
import type { PlatformEInvoicing } from './e-invoiced-issuers.ts';

/** The platform's own GST details for the convenience-fee invoice; null when not all are configured. */
export interface PlatformGst {
  legalName: string;
  address: string;
  state: string;
  gstin: string;
}

export function platformGstOf(env: Env): PlatformGst | null {
  const { PLATFORM_GSTIN, PLATFORM_LEGAL_NAME, PLATFORM_ADDRESS, PLATFORM_STATE } = env;
  if (!PLATFORM_GSTIN || !PLATFORM_LEGAL_NAME || !PLATFORM_ADDRESS || !PLATFORM_STATE) return null;
  return {
    legalName: PLATFORM_LEGAL_NAME,
    address: PLATFORM_ADDRESS,
    state: PLATFORM_STATE,
    gstin: PLATFORM_GSTIN,
  };
}

/**
 * From when the platform's own B2B fee invoices and their credit notes are registered with the IRP
 * (PLATFORM_E_INVOICING_SINCE, an IST day), as an instant; null when e-invoicing does not apply to it.
 */
function platformEInvoicingSinceOf(env: Env): string | null {
  const day = env.PLATFORM_E_INVOICING_SINCE;
  return day ? new Date(`${day}T00:00:00+05:30`).toISOString() : null;
}

/**
 * The platform's own e-invoicing: from when (above), and whether the IRP's 30-day reporting window
 * applies to it (PLATFORM_AATO_10_CRORE: aggregate annual turnover of ₹10 crore or more).
 */
export function platformEInvoicingOf(env: Env): PlatformEInvoicing {
  return { since: platformEInvoicingSinceOf(env), reportingWindow: env.PLATFORM_AATO_10_CRORE };
}
