import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

/**
 * Goes to an address nobody has proved yet, so it holds no text the person signing up chose: anyone
 * can sign up with a stranger's address, and a name such as 'Claim your refund at evil.example' would
 * otherwise reach the stranger in a genuine Jalsa mail.
 */
export function verificationMail(options: { to: string; url: string; tokenId: string }): OutgoingMail {
  const content = renderMail({
    heading: 'Verify your email address',
    greeting: 'Hi there,',
    paragraphs: [
      'Thanks for signing up for Jalsa. Please confirm that this is your email address so we can send you your tickets and booking updates.',
    ],
    action: { label: 'Verify email address', url: options.url },
    footnote:
      "This link is valid for 48 hours. If you didn't create a Jalsa account, you can ignore this email.",
  });
  return {
    to: options.to,
    subject: 'Verify your email address for Jalsa',
    ...content,
    idempotencyKey: `verify-email:${options.tokenId}`,
  };
}

/** `name` only for a verified address (the reason is on `verificationMail`). */
export function passwordResetMail(options: {
  to: string;
  name: string | null;
  url: string;
  tokenId: string;
}): OutgoingMail {
  const content = renderMail({
    heading: 'Reset your password',
    greeting: `Hi ${options.name ?? 'there'},`,
    paragraphs: [
      'We received a request to reset the password of your Jalsa account. Choose a new password with the button below.',
      'Setting a new password signs you out of Jalsa on every other device.',
    ],
    action: { label: 'Reset password', url: options.url },
    footnote:
      "This link is valid for 30 minutes and can be used once. If you didn't ask to reset your password, you can ignore this email; your password stays the same.",
  });
  return {
    to: options.to,
    subject: 'Reset your Jalsa password',
    ...content,
    idempotencyKey: `password-reset:${options.tokenId}`,
  };
}
