import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { listDevMail, readDevMail } from '../services/mail/dev-mailbox.ts';
import { escapeHtml } from '../services/mail/layout.ts';

/**
 * The development mailbox: every message the development mailer wrote to DATA_DIR/mail.
 *   GET /dev/mail            the list, newest first
 *   GET /dev/mail/:id        headers and the plain-text body, with a link to the HTML body
 *   GET /dev/mail/:id/html   the HTML body as the recipient would see it
 * Never served when NODE_ENV=production (the routes do not exist there), and elsewhere only to this
 * machine: the messages hold password-reset links, so a development server reached over the network
 * answers 404 to everyone else. The Host must name this machine too (localhost, 127.0.0.1, [::1]): a
 * page on another site can point its own domain at 127.0.0.1 (DNS rebinding), and its requests then
 * come from this machine as same-origin requests that can read the answer; they still carry the
 * attacker's domain as Host, and get 403.
 */
export function devMailRoutes(deps: AppDeps) {
  const routes = new Hono<AppEnv>();
  if (deps.env.NODE_ENV === 'production') return routes;
  const dataDir = deps.env.DATA_DIR;

  routes.use('*', async (c, next) => {
    if (!fromThisMachine(c.env)) return c.json({ error: { message: 'Not found' } }, 404);
    if (!LOOPBACK_HOSTS.has(new URL(c.req.url).hostname)) {
      return c.json({ error: { message: 'Open the development mailbox at localhost' } }, 403);
    }
    return next();
  });

  routes.get('/', (c) => {
    const mails = listDevMail(dataDir);
    const rows = mails
      .map(
        (m) => `<tr>
  <td>${escapeHtml(new Date(m.sentAt).toLocaleString('en-IN', { timeZone: 'Asia/Kolkata' }))}</td>
  <td>${escapeHtml(m.to)}</td>
  <td><a href="/dev/mail/${m.id}">${escapeHtml(m.subject)}</a></td>
</tr>`,
      )
      .join('\n');
    const body = mails.length
      ? `<table><thead><tr><th scope="col">Sent (India time)</th><th scope="col">To</th><th scope="col">Subject</th></tr></thead><tbody>${rows}</tbody></table>`
      : '<p>No mail yet.</p>';
    c.header('Cache-Control', 'no-store');
    return c.html(page('Development mailbox', `<h1>Development mailbox</h1>${body}`));
  });

  routes.get('/:id', (c) => {
    const mail = readDevMail(dataDir, c.req.param('id'));
    if (!mail)
      return c.html(
        page('Not found', '<h1>No such message</h1><p><a href="/dev/mail">All mail</a></p>'),
        404,
      );
    const { meta } = mail;
    const attachments = meta.attachments.length
      ? `<dt>Attachments</dt><dd>${meta.attachments.map((a) => escapeHtml(`${a.filename} (${a.contentType})`)).join(', ')}</dd>`
      : '';
    c.header('Cache-Control', 'no-store');
    return c.html(
      page(
        meta.subject,
        `<p><a href="/dev/mail">All mail</a></p>
<h1>${escapeHtml(meta.subject)}</h1>
<dl>
  <dt>From</dt><dd>${escapeHtml(meta.from)}</dd>
  <dt>To</dt><dd>${escapeHtml(meta.to)}</dd>
  <dt>Sent</dt><dd>${escapeHtml(meta.sentAt)}</dd>
  ${attachments}
</dl>
<p><a href="/dev/mail/${meta.id}/html">View HTML version</a></p>
<h2>Text version</h2>
<pre>${linkify(mail.text)}</pre>`,
      ),
    );
  });

  routes.get('/:id/html', (c) => {
    const mail = readDevMail(dataDir, c.req.param('id'));
    if (!mail) return c.text('No such message', 404);
    c.header('Cache-Control', 'no-store');
    return c.html(mail.html);
  });

  return routes;
}

/** Escapes the text and makes its http(s) links clickable. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Jalsa dev mail</title>
<style>
body{font-family:system-ui,sans-serif;max-width:960px;margin:24px auto;padding:0 16px;color:#1f2937}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e5e7eb}
dt{font-weight:bold}dd{margin:0 0 8px}pre{white-space:pre-wrap;background:#f9fafb;padding:12px;border-radius:6px}
a{color:#be123c}
</style></head>
<body><main>${body}</main></body>
</html>`;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
/** Host names that can only mean this machine (the request URL's host is the Host header's). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * True for a connection from a loopback address, or for a request made inside the process
 * (`app.request()` in tests has no socket at all). Forwarded headers are not consulted: they are the
 * client's word.
 */
function fromThisMachine(env: unknown): boolean {
  const socket = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    ?.socket;
  if (!socket) return true;
  return LOOPBACK.test(socket.remoteAddress ?? '');
}
