import { eq } from 'drizzle-orm';
import { describe, it } from 'vitest';
import { HOARDING_MESSAGES } from '../../shared/hoarding-messages.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { DESKTOP, EVERY_IMPACT, expectNoA11yViolations, type Page, PHONE_390 } from '../helpers/browser.ts';
import { selectTwoGold, signInNewBuyer } from '../helpers/buyer.ts';
import { buyThroughSimulator, useE2eContexts, useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';

/**
 * Every buyer page through axe-core at phone and desktop size (issue 39): the journeys' own checks see
 * the pages in the states their stories reach; this sweep sees each page once at each size, so a
 * violation in shared chrome (header, footer) or on a page no journey checks fails here. Checkout is
 * also seen in each state a buyer meets on the way to paying. The pages' other states (account links,
 * dialogs, empty and error states) are in a11y-sweep-states.test.ts, and those only a journey between
 * people reaches (a transfer, a waiting room, a waiting-list offer) in a11y-sweep-journeys.test.ts.
 */
const expectNoViolations = (page: Page) => expectNoA11yViolations(page, EVERY_IMPACT);

describe('accessibility sweep of the buyer pages', () => {
  const world = useE2eWorld();
  const { baseURL, open, openSignedIn } = useE2eContexts(world);

  /** Each page: its path and what shows once it has drawn (a heading, a button, a field). */
  const staticPages: [string, (page: Page) => Promise<unknown>][] = [
    ['/', (p) => p.getByRole('heading', { name: 'Happening near me' }).waitFor()],
    ['/explore', (p) => p.getByRole('heading', { level: 1 }).first().waitFor()],
    [
      '/search?q=Sunburn',
      (p) =>
        p
          .getByRole('link', { name: /Sunburn Arena/ })
          .first()
          .waitFor(),
    ],
    ['/profile', (p) => p.getByRole('heading', { level: 1 }).first().waitFor()],
    ['/Contact_Us', (p) => p.getByRole('heading', { level: 1 }).first().waitFor()],
    ['/privacy-policy', (p) => p.getByRole('heading', { level: 1 }).first().waitFor()],
    ['/Terms%20&%20Conditions', (p) => p.getByRole('heading', { level: 1 }).first().waitFor()],
    ['/list-your-event', (p) => p.getByRole('heading', { level: 1 }).first().waitFor()],
    // The storefront's two remaining pages (spec §2): /protected needs the account the sweep signs in with.
    ['/protected', (p) => p.getByRole('heading', { level: 1, name: 'Protected' }).waitFor()],
    // The test payment page, once the gateway's settings have loaded and Pay is enabled.
    ['/temp-checkout', (p) => p.getByRole('button', { name: 'Pay', disabled: false }).waitFor()],
  ];

  // The two sizes side by side: much of a page's time is spent waiting on the server and the browser.
  it.concurrent.each([
    ['phone', PHONE_390],
    ['desktop', DESKTOP],
  ])(
    'every buyer page at %s size has no accessibility violation',
    { timeout: 85_000 },
    async (_size, viewport) => {
      const ev = createTicketedEvent(world.database.db, {
        now: new Date(),
        types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 10 }],
      });
      const { page, context, email } = await openSignedIn(viewport);
      const bookingId = await buyThroughSimulator(page, baseURL, ev, email);
      // The city page: home with a city chosen.
      await context.addInitScript(() => localStorage.setItem('selectedCity', 'Mumbai'));

      const visit = async (path: string, drawn: (page: Page) => Promise<unknown>) => {
        // Each page's own content is waited for below; the load event's images and fonts add nothing to axe.
        await page.goto(path, { waitUntil: 'domcontentloaded' });
        await drawn(page);
        await expectNoViolations(page);
      };
      for (const [path, drawn] of staticPages) await visit(path, drawn);
      await visit(`/events/${ev.eventId}`, (p) =>
        p.getByRole('heading', { level: 1, name: ev.eventName }).waitFor(),
      );
      await visit('/my-bookings', (p) => p.getByRole('article', { name: ev.eventName }).waitFor());
      // The ticket with its QR, which the page draws after the booking has loaded.
      await visit(`/ticket/${bookingId}`, (p) => p.getByTestId('ticket-qr').waitFor());

      await selectTwoGold(page, ev);
      await expectNoViolations(page);
      await page.getByRole('link', { name: 'Checkout' }).click();
      await page.getByRole('heading', { name: 'Payment Summary' }).waitFor();
      await expectNoViolations(page);

      // Signed out: sign-in and sign-up.
      await context.clearCookies();
      await visit('/login', (p) => p.getByLabel('Email').waitFor());
      await visit('/SignUp', (p) => p.getByLabel('Email').waitFor());
    },
  );

  it.concurrent.each([
    ['phone', PHONE_390],
    ['desktop', DESKTOP],
  ])(
    "checkout's messages, its payment window and the booked page at %s size",
    { timeout: 85_000 },
    async (_size, viewport) => {
      const db = world.database.db;
      const ev = createTicketedEvent(db, {
        now: new Date(),
        types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 10 }],
      });
      // A buyer who has not verified the address yet, with no phone or state on the profile.
      const { context } = await open(viewport);
      const { userId } = await signInNewBuyer(db, context, baseURL, { verified: false });
      const page = await context.newPage();
      await selectTwoGold(page, ev);
      await page.getByRole('link', { name: 'Checkout' }).click();
      await page.getByRole('heading', { name: 'Payment Summary' }).waitFor();
      await page
        .getByText(/verify/i)
        .first()
        .waitFor();
      await expectNoViolations(page);
      await page.getByRole('button', { name: 'Proceed' }).click();
      await page.getByText('Phone number is required').first().waitFor();
      await expectNoViolations(page);
      await page.getByLabel('Phone').fill('98765 43210');
      await page.getByLabel('State').selectOption('Karnataka');
      await page.getByRole('button', { name: 'Proceed' }).click();
      await page.getByText(HOARDING_MESSAGES.emailNotVerified).first().waitFor();
      await expectNoViolations(page);

      // Verified (the mailed link followed elsewhere): Proceed opens the payment window, Pay books.
      db.update(users).set({ isEmailVerified: true }).where(eq(users.id, userId)).run();
      await page.getByRole('button', { name: 'Proceed' }).click();
      const payment = page.getByRole('dialog');
      await payment.getByRole('button', { name: /^Pay ₹/ }).waitFor();
      await expectNoViolations(page);
      await payment.getByRole('button', { name: /^Pay ₹/ }).click();
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      await expectNoViolations(page);
    },
  );
});
