import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { EVENT_TARGET_BYTES, HOME_TARGET_BYTES, measureBundle } from '../../scripts/report-bundle-size.ts';

// `npm run build` prints the figure but never fails on it (`npm start` builds too, and a self-hoster's
// server must start). The budget is kept here, on the client this e2e run built and serves.
describe('JavaScript budget', () => {
  it("keeps the home page's and the event page's initial JavaScript within their budgets", () => {
    const { homeBytes, home, eventBytes, event } = measureBundle(inject('e2eClientDir'));
    expect(home.length).toBeGreaterThan(0);
    expect(homeBytes, `home page initial JS, gzipped, in ${home.join(', ')}`).toBeLessThanOrEqual(
      HOME_TARGET_BYTES,
    );
    expect(eventBytes, `event page initial JS, gzipped, in ${event.join(', ')}`).toBeLessThanOrEqual(
      EVENT_TARGET_BYTES,
    );
  });

  // Issue 39: the console's, admin's and gate's route definitions load when one of their paths is
  // opened (src-client/staff-routes.ts); a buyer's start-up neither downloads nor evaluates them.
  it('defines no console, admin or gate route in what a buyer’s first visit loads', () => {
    const dist = inject('e2eClientDir');
    const { home } = measureBundle(dist);
    const code = home.map((file) => readFileSync(path.join(dist, file), 'utf8')).join('\n');
    // Route definitions as the minifier writes them: `path:"/x"` or path:`/x`.
    const paths = [...code.matchAll(/\bpath:\s*["'`](\/[^"'`]*)["'`]/g)].map((m) => m[1]);
    // The pattern finds the buyer's routes, so an empty answer below means something.
    expect(paths).toContain('/events/$eventId');
    expect(paths.filter((p) => /^\/(organiser|admin|gate|check-in)(\/|$)/.test(p ?? ''))).toEqual([]);
  });

  // Issue 39: the page's largest paint is the server's hero; the entry only waits for it to be painted,
  // then imports the app's start-up, so no app script is fetched beside the hero or evaluated before it.
  it('the entry chunk imports nothing up front and loads the app only through start-app', () => {
    const dist = inject('e2eClientDir');
    const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }
    >;
    const entries = Object.values(manifest).filter((chunk) => chunk.isEntry);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.imports ?? []).toEqual([]);
    expect(entries[0]?.dynamicImports).toEqual(['start-app.tsx']);
  });
});
