import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, newContext, PHONE_390 } from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';

// Issue 17: Explore listed every city's events whatever city was chosen.
describe('explore on a phone (390×844)', () => {
  const world = useE2eWorld();
  const baseURL = e2eServer().baseURL;

  it("keeps to the chosen city, with an explicit 'All cities'", async () => {
    const inPune = createTicketedEvent(world.database.db, {
      now: new Date(),
      city: 'Pune',
      name: `Pune Comedy ${Date.now()}`,
    });
    const inMumbai = createTicketedEvent(world.database.db, {
      now: new Date(),
      city: 'Mumbai',
      name: `Mumbai Comedy ${Date.now()}`,
    });
    const { context } = await newContext(world.browser, baseURL, PHONE_390);
    await context.addInitScript(() => localStorage.setItem('selectedCity', 'Pune'));
    const page = await context.newPage();
    await page.goto('/explore');

    await page.getByRole('heading', { name: 'Explore events in Pune' }).waitFor();
    await page.getByRole('link', { name: new RegExp(inPune.eventName) }).waitFor();
    await expect(page.getByRole('link', { name: new RegExp(inMumbai.eventName) }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Pune' }).getAttribute('aria-pressed')).resolves.toBe(
      'true',
    );
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'All cities' }).click();
    await page.getByRole('heading', { name: 'Explore events in all cities' }).waitFor();
    // All cities is paged (issue 25), and other test files add events to this server: load pages
    // until both cards are there.
    for (const name of [inMumbai.eventName, inPune.eventName]) {
      const card = page.getByRole('link', { name: new RegExp(name) });
      for (let more = 0; more < 20 && (await card.count()) === 0; more++) {
        const loadMore = page.getByRole('button', { name: 'Load more' });
        if ((await loadMore.count()) > 0) await loadMore.click();
        await page.waitForTimeout(300);
      }
      await card.waitFor();
    }
    expect(new URL(page.url()).searchParams.get('cities')).toBe('all');
    await context.close();
  });

  it('cuts a long venue on a card but keeps its city in view', async () => {
    const ev = createTicketedEvent(world.database.db, {
      now: new Date(),
      city: 'Pune',
      name: `Pune Jazz ${Date.now()}`,
      location: 'Jawaharlal Nehru Memorial Auditorium and Convention Centre, Gate 4, Shivajinagar, Pune',
    });
    const { context } = await newContext(world.browser, baseURL, PHONE_390);
    await context.addInitScript(() => localStorage.setItem('selectedCity', 'Pune'));
    const page = await context.newPage();
    await page.goto('/explore');
    const card = page.getByRole('link', { name: new RegExp(ev.eventName) });
    const city = card.getByText('Pune', { exact: true });
    await city.waitFor();
    const shown = await city.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const cardBox = el.closest('a')!.getBoundingClientRect();
      return el.scrollWidth <= el.clientWidth && box.left >= cardBox.left && box.right <= cardBox.right;
    });
    expect(shown).toBe(true);
    await context.close();
  });
});
