import type { MailAttachment } from '../../db/schema/mail.ts';

/** One message as handed to a provider. `idempotencyKey` is the outbox row's, the same on every retry. */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
  idempotencyKey: string;
}

/** A way to deliver mail: Resend in production, the development mailbox otherwise (chosen in compose-deps.ts). */
export interface Mailer {
  readonly name: string;
  /** The provider's request rate limit, which the sender keeps under (Resend's default is 2 per second). */
  readonly maxPerSecond?: number;
  /** Resolves with the provider's message id; rejects with MailSendError. */
  send(message: MailMessage): Promise<{ messageId: string }>;
}

/**
 * A failed delivery. `retryable` is false when sending the same message again cannot succeed (an
 * invalid address, a rejected API key), so the outbox gives up at once instead of retrying for hours.
 */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The provider refused because of its rate limit (HTTP 429): the sender stops for this round. */
    readonly rateLimited = false,
  ) {
    super(message);
    this.name = 'MailSendError';
  }
}
