import { organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import type { TestApp } from './test-app.ts';

/** A GST-registered organiser in Mumbai (Maharashtra), the profile most invoice tests start from. */
export const MUMBAI_TAX_PROFILE = {
  legalName: 'Tala Collective LLP',
  address: '12 Hill Road, Bandra, Mumbai 400050',
  state: 'Maharashtra',
  gstin: '27AAPFU0939F1ZV',
} as const;

/** Saves an organiser's invoicing profile through the service the profile page calls. */
export function saveTaxProfile(t: TestApp, userId: string, profile: object = MUMBAI_TAX_PROFILE) {
  return saveOrganiserProfile(
    t.deps.db,
    platformGstOf(t.deps.env),
    userId,
    organiserProfileSchema.parse(profile),
    t.clock.now(),
  );
}
