import type { Env } from '../../env.ts';

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
