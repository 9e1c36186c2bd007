import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { AppEnv } from '../app.ts';
import type { AppDeps } from '../deps.ts';
import { findEventMeta } from '../services/catalog/event-meta.ts';

const DEFAULT_TITLE = 'Jalsa: concerts, sports, comedy and shows near you';
const DEFAULT_DESCRIPTION = 'Book tickets for concerts, sports, comedy, shows and workshops in your city.';

/**
 * Serves the built React client: hashed assets with a year-long cache, and index.html for every other
 * path so the client router can take over. Event pages get their own title and Open Graph tags, so a
 * link shared on WhatsApp previews the event.
 */
export function serveClient(app: Hono<AppEnv>, deps: AppDeps) {
  const root = deps.clientDir!;
  const template = readFileSync(path.join(root, 'index.html'), 'utf8');

  app.use(
    '/assets/*',
    serveStatic({
      root,
      onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  );
  app.use(
    '*',
    serveStatic({
      root,
      rewriteRequestPath: (p) => (p === '/' || p === '/index.html' ? '/__no_such_file__' : p),
      onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=3600'),
    }),
  );

  app.get('*', (c) => {
    if (c.req.path.startsWith('/trpc/') || c.req.path.startsWith('/api/')) {
      return c.json({ error: { message: 'Not found' } }, 404);
    }
    const origin = deps.env.PUBLIC_URL ?? new URL(c.req.url).origin;
    const eventId = /^\/events?\/([^/]+)\/?$/.exec(c.req.path)?.[1];
    const meta = eventId ? findEventMeta(deps.db, decodeURIComponent(eventId)) : null;
    const html = withMeta(template, {
      title: meta ? `${meta.title} | Jalsa` : DEFAULT_TITLE,
      description: meta?.description || DEFAULT_DESCRIPTION,
      image: meta?.imageUrl ? new URL(meta.imageUrl, origin).href : `${origin}/images/og-default.jpg`,
      url: new URL(c.req.path, origin).href,
    });
    c.header('Cache-Control', 'no-cache');
    return c.html(html);
  });
}

interface PageMeta {
  title: string;
  description: string;
  image: string;
  url: string;
}

function withMeta(template: string, meta: PageMeta): string {
  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="Jalsa">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:image" content="${escapeHtml(meta.image)}">`,
    `<meta property="og:url" content="${escapeHtml(meta.url)}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
  ].join('\n    ');
  return template.replace(/<title>[^<]*<\/title>/, tags);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
