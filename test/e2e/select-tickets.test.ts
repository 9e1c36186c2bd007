import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src-server/db/client.ts';
import { expectNoSeriousA11yViolations, newContext, PHONE_390, saveScreenshot } from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';
import { daysToSaturday, type FixtureShow, fixtureShow, indiaDayLabel } from '../helpers/fixture-dates.ts';
import { insertEvent } from '../helpers/insert-event.ts';

// Issue 17, 'Misleading': what ticket selection says must match what the buyer chose.
describe('ticket selection on a phone (390×844)', () => {
  const world = useE2eWorld();
  const baseURL = e2eServer().baseURL;

  it('one chip per day, starting on the first day with tickets, with the chosen date in the header', async () => {
    const ev = createTwoDayEvent(world.database);
    const { context } = await newContext(world.browser, baseURL, PHONE_390);
    const page = await context.newPage();
    await page.goto(`/select-tickets/${ev.id}`);
    await page.getByRole('heading', { name: ev.name }).waitFor();

    // Sunday has two shows (two dates in the data) and gets one chip.
    const chips = page.getByRole('region', { name: 'Date' }).getByRole('button');
    await expect(chips.count()).resolves.toBe(2);
    // Saturday has nothing on sale, so Sunday's matinee is where the buyer starts.
    await expect(chips.nth(1).getAttribute('aria-pressed')).resolves.toBe('true');
    const header = page.getByTestId('chosen-date');
    await expect(header.textContent()).resolves.toBe(`${ev.sunday} | 2:00 PM - 5:00 PM`);
    const times = page.getByRole('region', { name: 'Time' }).getByRole('button');
    await expect(times.allTextContents()).resolves.toEqual(['2:00 PM', '7:00 PM']);

    // The evening show is its own date in the data: checkout gets that date's id.
    await times.nth(1).click();
    await expect(header.textContent()).resolves.toBe(`${ev.sunday} | 7:00 PM - 10:00 PM`);
    await page.getByRole('button', { name: 'Select Ticket: Gold' }).click();
    const checkoutHref = await page.getByRole('link', { name: 'Checkout' }).getAttribute('href');
    expect(new URL(checkoutHref!, baseURL).searchParams.get('selectedDate')).toBe(`${ev.id}-sun-evening`);

    await chips.nth(0).click();
    await expect(header.textContent()).resolves.toBe(`${ev.saturday} | 7:00 PM - 10:00 PM`);
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  it('says a type not yet on sale is not on sale yet, not Sold Out', async () => {
    const ev = createTwoDayEvent(world.database);
    const { context } = await newContext(world.browser, baseURL, PHONE_390);
    const page = await context.newPage();
    await page.goto(`/select-tickets/${ev.id}`);
    await page.getByRole('region', { name: 'Date' }).getByRole('button').nth(0).click();
    const backstage = page.getByRole('listitem').filter({ hasText: 'Backstage' });
    await backstage.getByRole('paragraph').filter({ hasText: 'Not on sale yet' }).waitFor();
    await expect(backstage.getByText('Sold Out').count()).resolves.toBe(0);
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Silver' })
      .getByRole('paragraph')
      .filter({ hasText: 'Sold Out' })
      .waitFor();
    // The buttons say why they cannot be pressed.
    await expect(backstage.getByRole('button').textContent()).resolves.toBe('Not on sale yet');
    await expect(
      page.getByRole('listitem').filter({ hasText: 'Silver' }).getByRole('button').textContent(),
    ).resolves.toBe('Sold Out');
    await context.close();
  });

  it("says when a type's sale opens, in India time, instead of Sold Out", async () => {
    const ev = createTwoDayEvent(world.database);
    const { context } = await newContext(world.browser, baseURL, PHONE_390);
    const page = await context.newPage();
    await page.goto(`/select-tickets/${ev.id}`);
    // Sunday's matinee starts selected; its Front Row opens for sale on Saturday at 10 AM India time.
    const frontRow = page.getByRole('listitem').filter({ hasText: 'Front Row' });
    const opens = `Sale opens ${ev.saleOpensLabel}`;
    await frontRow.getByRole('paragraph').filter({ hasText: opens }).waitFor();
    // The button keeps it short, so the name and the date beside the price are not squeezed on a phone.
    await expect(frontRow.getByRole('button').textContent()).resolves.toBe('Not on sale yet');
    await expect(frontRow.getByText('Sold Out').count()).resolves.toBe(0);
    await saveScreenshot(page, 'select-tickets-sale-opens-phone.png', { fullPage: true });
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  it('asks before a second ticket type replaces the first', async () => {
    const ev = createTwoDayEvent(world.database);
    const { context } = await newContext(world.browser, baseURL, PHONE_390);
    const page = await context.newPage();
    await page.goto(`/select-tickets/${ev.id}`);
    await page.getByRole('button', { name: 'Select Ticket: Silver' }).click();
    await page.getByRole('button', { name: 'Add one Silver' }).click();
    await page.getByText('2 Ticket(s)').waitFor();
    // The limit is said next to the stepper, before the + button stops.
    await expect(
      page.getByRole('listitem').filter({ hasText: 'Silver' }).getByTestId('quantity-limit').textContent(),
    ).resolves.toBe('Max 10 per booking');

    const selectGold = page.getByRole('button', { name: 'Select Ticket: Gold' });
    await selectGold.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toContain(
      'One ticket category per booking — replace 2 × Silver with Gold?',
    );
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Keep 2 × Silver' }).click();
    await expect(dialog.count()).resolves.toBe(0);
    await page.getByText('2 Ticket(s)').waitFor();
    // Focus goes back to what opened the question.
    await expect.poll(() => selectGold.evaluate((el) => el === document.activeElement)).toBe(true);

    await selectGold.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Replace with Gold' }).click();
    await page.getByText('1 Ticket(s)').waitFor();
    await page.getByRole('group', { name: 'Gold quantity' }).waitFor();
    await expect(page.getByRole('group', { name: 'Silver quantity' }).count()).resolves.toBe(0);
    await context.close();
  });
});

/**
 * A weekend at least two weeks ahead of the real clock (the server under test reads it). Saturday:
 * Silver sold out and Backstage not yet on sale. Sunday: a 2 PM and a 7 PM show, listed as two dates of
 * the same day (as an organiser may enter them), both with Silver and Gold; the matinee also has a
 * Front Row whose sale opens on Saturday at 10 AM.
 */
function createTwoDayEvent(database: DatabaseHandle) {
  const id = `evt-${randomUUID().slice(0, 8)}`;
  const name = `Zakir Live ${id}`;
  const type = (suffix: string, typeName: string, pricePaise: number, extra: object = {}) => ({
    id: `${id}-${suffix}`,
    name: typeName,
    pricePaise,
    personAllowedPerTicket: 1,
    description: `${typeName} entry`,
    isRefundable: true,
    totalTickets: 20,
    availableTickets: 20,
    isLive: true,
    benefits: ['Entry'],
    ...extra,
  });
  const date = (suffix: string, start: string, end: string, types: ReturnType<typeof type>[]) => ({
    id: `${id}-${suffix}`,
    dateOfEvent: start,
    isLive: true,
    slots: [{ id: `${id}-${suffix}-slot`, startTime: start, endTime: end, tickets: types }],
  });
  const now = new Date();
  const saturday = fixtureShow(now, daysToSaturday(now));
  const sunday = fixtureShow(now, daysToSaturday(now) + 1);
  // Show times in India time on those days: 7-10 PM is 13:30-16:30 UTC, 2-5 PM is 08:30-11:30 UTC.
  const at = (show: FixtureShow, hoursAfterMidnight: number) =>
    new Date(Date.parse(show.day) + hoursAfterMidnight * 3_600_000).toISOString();
  insertEvent(
    database.db,
    {
      id,
      name,
      description: 'Stand-up comedy.',
      category: 'comedy',
      city: 'Mumbai',
      imagesUrls: [],
      posterUrl: null,
      startTime: at(saturday, 19),
      endTime: at(sunday, 22),
      eventLocationText: 'NCPA, Nariman Point, Mumbai',
      googleMapsEmbedLink: null,
      ageRestrictions: 16,
      artistLineup: null,
      termsAndConditions: [],
      platformFeeRate: null,
      tickets: [
        date('sat', at(saturday, 19), at(saturday, 22), [
          type('sat-silver', 'Silver', 49_900, { availableTickets: 0 }),
          type('sat-backstage', 'Backstage', 299_900, { isLive: false }),
        ]),
        date('sun-evening', at(sunday, 19), at(sunday, 22), [
          type('sun-evening-silver', 'Silver', 49_900),
          type('sun-evening-gold', 'Gold', 99_900),
        ]),
        date('sun-matinee', at(sunday, 14), at(sunday, 17), [
          type('sun-matinee-silver', 'Silver', 49_900),
          type('sun-matinee-gold', 'Gold', 99_900),
          type('sun-matinee-front', 'Front Row', 199_900, { saleOpensAt: at(saturday, 10) }),
        ]),
      ],
    },
    now.toISOString(),
  );
  return {
    id,
    name,
    saturday: indiaDayLabel(saturday.start),
    sunday: indiaDayLabel(sunday.start),
    // The sale window's wording: "5 Dec 2026, 10:00 AM".
    saleOpensLabel: `${indiaDayLabel(saturday.start).replace(/^0/, '')}, 10:00 AM`,
  };
}
