/**
 * The Indian postal PIN code in a free-text address (ADR 0034): six digits, the first 1-9, standing on
 * their own (not part of a longer number). The last one wins, as an address ends with its PIN. The
 * IRP's e-invoice (schema 1.1) requires the seller's PIN, so this one rule decides both what the
 * payload sends (e-invoice-payload.ts) and whether e-invoicing may be on for a profile's address
 * (e-invoicing-setting.ts, organiser-profile.ts).
 */
const PIN = /(?<!\d)([1-9]\d{5})(?!\d)/g;

export function pinOf(address: string): string | null {
  return [...address.matchAll(PIN)].at(-1)?.[1] ?? null;
}

/** The address without its PIN codes (for the locality the IRP wants besides it). */
export function withoutPin(text: string): string {
  return text.replace(PIN, '');
}
