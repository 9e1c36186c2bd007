import { describe, expect, inject, it } from 'vitest';
import { HOME_TARGET_BYTES, measureBundle } from '../../scripts/report-bundle-size.ts';

// `npm run build` prints the figure but never fails on it (`npm start` builds too, and a self-hoster's
// server must start). The budget is kept here, on the client this e2e run built and serves.
describe('JavaScript budget', () => {
  it("keeps the home page's initial JavaScript within its budget", () => {
    const { homeBytes, home } = measureBundle(inject('e2eClientDir'));
    expect(home.length).toBeGreaterThan(0);
    expect(homeBytes, `home page initial JS, gzipped, in ${home.join(', ')}`).toBeLessThanOrEqual(
      HOME_TARGET_BYTES,
    );
  });
});
