/**
 * Proceed's refusals against holding seats without buying them (issue 19, docs/decisions/0023-hoarding-limits.md).
 * Shared so the checkout page can recognise the one it answers with an action (resend the verification mail).
 */
/** Said on the sign-up form, before anything is typed, so that a new buyer is not surprised at Proceed. */
export const SIGN_UP_VERIFY_NOTE =
  "We'll email you a link to verify your address. You need to open it before you can book tickets.";

export const HOARDING_MESSAGES = {
  emailNotVerified:
    'Please verify your email address before booking. Open the link we emailed you, then press Proceed again.',
  coolDown: (minutes: number) =>
    `Your last payment session for this show ended without payment. You can book it again in ${plural(minutes, 'minute')}.`,
  tooManyAttempts: (minutes: number) =>
    `Too many booking attempts for this show. Please try again in ${plural(minutes, 'minute')}.`,
  accountCap: (max: number) =>
    `You can hold at most ${plural(max, 'ticket')} at a time. Complete or cancel your other bookings in progress first.`,
  slotShareCap: (max: number) =>
    `You can hold at most ${plural(max, 'ticket')} for this show at a time, so that others get a fair chance.`,
  addressCap:
    'Too many tickets are being held from your network right now. Please try again in a few minutes.',
  perBuyerMax: (max: number, already: number) =>
    already > 0
      ? `You can book at most ${plural(max, 'ticket')} for this event, and you already have ${already}.`
      : `You can book at most ${plural(max, 'ticket')} for this event.`,
} as const;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
