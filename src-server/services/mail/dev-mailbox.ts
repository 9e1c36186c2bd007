import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Mailer, MailMessage } from './mailer.ts';

/**
 * The development mailer: each message becomes three files in DATA_DIR/mail (`<id>.json` with the
 * headers, `<id>.html`, `<id>.txt`), listed at /dev/mail (http/dev-mail.ts). Ids sort by time.
 */
export function createDevMailer(dataDir: string, clock: { now: () => Date }): Mailer {
  const folder = mailFolder(dataDir);
  return {
    name: 'dev-mailbox',
    async send(message: MailMessage) {
      mkdirSync(folder, { recursive: true });
      const sentAt = clock.now().toISOString();
      const id = `${sentAt.replace(/[-:.]/g, '')}-${randomBytes(4).toString('hex')}`;
      const meta: StoredMailMeta = {
        id,
        from: message.from,
        to: message.to,
        subject: message.subject,
        sentAt,
        idempotencyKey: message.idempotencyKey,
        attachments: message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType })),
      };
      writeFileSync(path.join(folder, `${id}.html`), message.html);
      writeFileSync(path.join(folder, `${id}.txt`), message.text);
      // Written last: a message is listed only once all of its files exist.
      writeFileSync(path.join(folder, `${id}.json`), JSON.stringify(meta, null, 2));
      return { messageId: id };
    },
  };
}

export interface StoredMailMeta {
  id: string;
  from: string;
  to: string;
  subject: string;
  sentAt: string;
  idempotencyKey: string;
  attachments: { filename: string; contentType: string }[];
}

export function mailFolder(dataDir: string): string {
  return path.join(dataDir, 'mail');
}

const ID_SHAPE = /^[0-9TZ]+-[0-9a-f]{8}$/;

/** Every stored message, newest first. */
export function listDevMail(dataDir: string): StoredMailMeta[] {
  let names: string[];
  try {
    names = readdirSync(mailFolder(dataDir));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.json') && ID_SHAPE.test(n.slice(0, -5)))
    .sort()
    .reverse()
    .map((n) => JSON.parse(readFileSync(path.join(mailFolder(dataDir), n), 'utf8')) as StoredMailMeta);
}

/** One stored message with its bodies, or null for an unknown (or malformed) id. */
export function readDevMail(
  dataDir: string,
  id: string,
): { meta: StoredMailMeta; html: string; text: string } | null {
  if (!ID_SHAPE.test(id)) return null;
  const base = path.join(mailFolder(dataDir), id);
  try {
    return {
      meta: JSON.parse(readFileSync(`${base}.json`, 'utf8')) as StoredMailMeta,
      html: readFileSync(`${base}.html`, 'utf8'),
      text: readFileSync(`${base}.txt`, 'utf8'),
    };
  } catch {
    return null;
  }
}
