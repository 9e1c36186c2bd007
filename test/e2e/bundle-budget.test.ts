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
});
