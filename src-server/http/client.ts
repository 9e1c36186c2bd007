import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { DEFAULT_CITY_NAME, findCity, SELECTED_CITY_COOKIE } from '../../shared/cities.ts';
import { isPagePath } from '../../shared/page-paths.ts';
import { publicLinkBase } from '../../shared/public-links.ts';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { findEventMeta } from '../services/catalog/event-meta.ts';
import {
  escapeHtml,
  eventShell,
  homeShell,
  type InitialQuery,
  initialDataTag,
  type LcpImage,
  lcpPreloadTag,
  type PageShell,
  pathShell,
} from './page-shell.ts';

const DEFAULT_TITLE = 'Jalsa: concerts, sports, comedy and shows near you';
const DEFAULT_DESCRIPTION = 'Book tickets for concerts, sports, comedy, shows and workshops in your city.';

/**
 * Serves the built React client: hashed assets with a year-long cache, and index.html for every other
 * path so the client router can take over (HTTP 404 where it has no screen: shared/page-paths.ts). Event pages get their own title and Open Graph tags, so a
 * link shared on WhatsApp previews the event. Every page starts with a static shell (page-shell.ts) that
 * the browser paints before the JavaScript runs; the home and event pages' shells hold their hero image,
 * which is also preloaded, and the stylesheet comes inside the page.
 */
export function serveClient(app: Hono<AppEnv>, deps: AppDeps) {
  const root = deps.clientDir!;
  const template = inlineStylesheets(readFileSync(path.join(root, 'index.html'), 'utf8'), root);

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

  app.get('*', async (c) => {
    if (c.req.path.startsWith('/trpc/') || c.req.path.startsWith('/api/')) {
      return c.json({ error: { message: 'Not found' } }, 404);
    }
    const origin = publicLinkBase(deps.env.PUBLIC_URL, c.req.url);
    const eventId = /^\/events?\/([^/]+)\/?$/.exec(c.req.path)?.[1];
    const meta = eventId ? await findEventMeta(deps.db, decodeURIComponent(eventId)) : null;
    const shell =
      c.req.path === '/'
        ? homeShell()
        : meta
          ? eventShell({ name: meta.title, imageUrl: meta.imageUrl })
          : pathShell(c.req.path);
    const firstData = initialDataTag(
      c.req.path === '/'
        ? await firstQueries(app, c, [['events.home', { city: homeCity(c) }]])
        : meta && eventId
          ? await firstQueries(app, c, [['events.byId', { id: decodeURIComponent(eventId) }]])
          : [],
    );
    const html = withMeta(withShell(template, shell, firstData), {
      title: meta ? `${meta.title} | Jalsa` : DEFAULT_TITLE,
      description: meta?.description || DEFAULT_DESCRIPTION,
      image: meta?.shareImageUrl
        ? new URL(meta.shareImageUrl, origin).href
        : `${origin}/images/og-default.jpg`,
      url: new URL(c.req.path, origin).href,
      preloadImage: shell.lcpImage,
    });
    c.header('Cache-Control', 'no-cache');
    // A path with no screen still gets the app (its router shows the not-found page), but as a 404.
    return c.html(html, isPagePath(decodedPath(c.req.path)) ? 200 : 404);
  });
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

interface PageMeta {
  title: string;
  description: string;
  image: string;
  url: string;
  preloadImage: LcpImage | null;
}

/**
 * The stylesheet goes inside the page (≈ 9 KB gzipped) instead of beside it: a separate CSS file is
 * render-blocking and, on a slow phone connection, shares the bandwidth with the scripts fetched at the
 * same time, which put the first paint ≈ 2 s out (docs/benchmarks.md). The CSP allows inline styles.
 */
function inlineStylesheets(template: string, root: string): string {
  return template.replace(
    /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g,
    (_tag, href: string) => {
      const css = readFileSync(path.join(root, href), 'utf8');
      return `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
    },
  );
}

function withShell(template: string, shell: PageShell, firstData: string): string {
  return template.replace('<div id="root"></div>', () => `<div id="root">${shell.body}</div>${firstData}`);
}

/**
 * The home row's city as the client will ask for it (lib/city-storage.ts): the visitor's choice from
 * the cookie the client keeps beside local storage, if it names a listed city, else the default.
 */
function homeCity(c: Context<AppEnv>): string {
  const chosen = getCookie(c, SELECTED_CITY_COOKIE);
  return (chosen && findCity(chosen)?.name) || (findCity(DEFAULT_CITY_NAME)?.name ?? DEFAULT_CITY_NAME);
}

/**
 * The first screen's public queries, asked of this same app as the browser would ask them (a GET under
 * /trpc), so a rush on the home page is answered from the public query cache (public-query-cache.ts)
 * rather than the database, and the answer is exactly the one the client would have fetched. A query
 * that fails is left out: the client then asks for it itself, as before.
 */
async function firstQueries(
  app: Hono<AppEnv>,
  c: Context<AppEnv>,
  queries: [path: string, input: unknown][],
): Promise<InitialQuery[]> {
  const answers = await Promise.all(
    queries.map(async ([procedure, input]): Promise<InitialQuery | null> => {
      const url = new URL(`/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, c.req.url);
      try {
        const response = await app.fetch(new Request(url), c.env);
        if (response.status !== 200) return null;
        const body = (await response.json()) as { result?: { data?: unknown } };
        return body.result && 'data' in body.result
          ? { path: procedure, input, data: body.result.data }
          : null;
      } catch {
        return null;
      }
    }),
  );
  return answers.filter((answer) => answer !== null);
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
    ...(meta.preloadImage ? [lcpPreloadTag(meta.preloadImage)] : []),
  ].join('\n    ');
  return template.replace(/<title>[^<]*<\/title>/, () => tags);
}
