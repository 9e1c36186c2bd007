import type { MailAttachment } from '../../db/schema/mail.ts';

/**
 * A mail header's value (subject, from, to, reply-to, an attachment's file name) on one line: every
 * control character (CR, LF, tab, NUL, DEL, the C1 range) and Unicode line or paragraph separator,
 * with the spaces around it, becomes one space. Header values are made from text others chose (an
 * event's name, a buyer's name, an organisation's name); a line break in one would end the header and
 * start another ("Bcc: …"), or break the message for the provider.
 */
export function headerValue(text: string): string {
  return text.replace(HEADER_BREAKS, ' ').trim();
}

/**
 * The message with every header value on one line. Applied where mail is queued (outbox.ts: every
 * message composed anywhere) and where it leaves for the provider (the Resend adapter: also the
 * configured sender, the doctor's test mail and rows queued before this existed); bodies are untouched.
 */
export function withSafeHeaders<
  Message extends {
    to: string;
    subject: string;
    from?: string;
    replyTo?: string;
    attachments?: MailAttachment[];
  },
>(message: Message): Message {
  return {
    ...message,
    to: headerValue(message.to),
    subject: headerValue(message.subject),
    ...(message.from === undefined ? {} : { from: headerValue(message.from) }),
    ...(message.replyTo === undefined ? {} : { replyTo: headerValue(message.replyTo) }),
    ...(message.attachments === undefined
      ? {}
      : { attachments: message.attachments.map((a) => ({ ...a, filename: headerValue(a.filename) })) }),
  };
}

const HEADER_BREAKS = /\s*[\p{Cc}\u2028\u2029]+\s*/gu;
