import { Resend } from 'resend';
import { withSafeHeaders } from '../../services/mail/header-value.ts';
import { type Mailer, type MailMessage, MailSendError } from '../../services/mail/mailer.ts';

/**
 * Delivers mail through Resend's API with the official SDK. The outbox row's idempotency key goes in the
 * `Idempotency-Key` header, so a retry after an unclear failure (timeout, crash before the row was
 * marked sent) is recognised by Resend and never delivered twice.
 */
export function createResendMailer(apiKey: string, maxPerSecond = 2): Mailer {
  const resend = new Resend(apiKey);
  return {
    name: 'resend',
    // Resend's default is 2 requests a second per team; MAIL_SEND_PER_SECOND sets what Resend granted.
    maxPerSecond,
    async send(unchecked: MailMessage) {
      // Every header value on one line, whoever composed the message (header-value.ts).
      const message = withSafeHeaders(unchecked);
      const { data, error } = await resend.emails.send(
        {
          from: message.from,
          to: message.to,
          subject: message.subject,
          html: message.html,
          text: message.text,
          attachments: message.attachments.map((a) => ({
            filename: a.filename,
            content: a.content,
            contentType: a.contentType,
          })),
        },
        { idempotencyKey: message.idempotencyKey },
      );
      if (error) {
        const status = (error as { statusCode?: number | null }).statusCode ?? null;
        throw new MailSendError(
          `Resend ${error.name}: ${error.message}`,
          isRetryable(status, error.name),
          status === 429,
        );
      }
      if (!data?.id) throw new MailSendError('Resend answered without an email id', true);
      return { messageId: data.id };
    },
  };
}

/**
 * No status means the request never got an answer (network failure); 429 and 5xx are temporary; a
 * concurrent request with the same key is still in flight. Other 4xx answers will not change on retry.
 */
function isRetryable(status: number | null, name: string): boolean {
  if (status === null) return true;
  if (name === 'concurrent_idempotent_requests') return true;
  return status === 429 || status >= 500;
}
