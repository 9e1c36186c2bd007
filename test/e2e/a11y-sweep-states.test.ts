import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, it } from 'vitest';
import { emailVerificationTokens, passwordResetTokens, users } from '../../src-server/db/schema/accounts.ts';
import { newLinkToken } from '../../src-server/services/accounts/tokens.ts';
import {
  DESKTOP,
  EVERY_IMPACT,
  expectNoA11yViolations,
  newContext,
  type Page,
  PHONE_390,
} from '../helpers/browser.ts';
import { signInNewBuyer } from '../helpers/buyer.ts';
import { useE2eContexts, useE2eWorld } from '../helpers/e2e-world.ts';

/**
 * The buyer's pages in the states a visit to each page once does not reach (issue 39), through axe-core at
 * phone and desktop size, held to every impact as a11y-sweep.test.ts holds the pages: the account pages
 * with their mailed links and validation messages, the first-visit city prompt, the dialogs, and the empty
 * and error states. (A transfer, a waiting room and a waiting-list offer: a11y-sweep-journeys.test.ts.)
 * The links' tokens are written as the services write them, so no test waits on the mail sender.
 */
const expectNoViolations = (page: Page) => expectNoA11yViolations(page, EVERY_IMPACT);

const SIZES = [
  ['phone', PHONE_390],
  ['desktop', DESKTOP],
] as const;

describe('accessibility sweep of the buyer states', () => {
  const world = useE2eWorld();
  const { baseURL, open, openSignedIn } = useE2eContexts(world);

  /** A one-time link token for `table`, as the mail's link carries it (only its hash is stored). */
  const linkToken = (table: typeof passwordResetTokens | typeof emailVerificationTokens, userId: string) => {
    const { token, id } = newLinkToken();
    const now = Date.now();
    const times = {
      expiresAt: new Date(now + 30 * 60_000).toISOString(),
      createdAt: new Date(now).toISOString(),
    };
    if (table === passwordResetTokens) {
      world.database.db
        .insert(passwordResetTokens)
        .values({ id, userId, ...times })
        .run();
    } else {
      const email = world.database.db.select().from(users).where(eq(users.id, userId)).get()!.email;
      world.database.db
        .insert(emailVerificationTokens)
        .values({ id, userId, email, ...times })
        .run();
    }
    return encodeURIComponent(token);
  };

  it.concurrent.each(SIZES)(
    'sign-in, sign-up and the account links with their messages at %s size',
    { timeout: 85_000 },
    async (_size, viewport) => {
      const { context } = await open(viewport);
      const page = await context.newPage();
      const nobody = await world.browser.newContext();
      const { userId } = await signInNewBuyer(world.database.db, nobody, baseURL, { verified: false });
      await nobody.close();

      // Sign-in and sign-up with every field's message showing.
      await page.goto('/login', { waitUntil: 'domcontentloaded' });
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('Password is required').waitFor();
      await expectNoViolations(page);
      await page.goto('/SignUp', { waitUntil: 'domcontentloaded' });
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.getByText('Please accept the Terms of Service and Privacy Policy').waitFor();
      await expectNoViolations(page);

      // Forgot password, before and after sending.
      await page.goto('/forgot-password', { waitUntil: 'domcontentloaded' });
      await page.getByRole('heading', { level: 1, name: 'Forgot Password' }).waitFor();
      await expectNoViolations(page);
      await page.getByLabel('Email').fill(`nobody-${randomUUID().slice(0, 8)}@example.com`);
      await page.getByRole('button', { name: 'Send Reset Link' }).click();
      await page.getByText("If an account exists for that address, we've sent a reset link").waitFor();
      await expectNoViolations(page);

      // Reset password: a dead link, then a live one with its form's messages.
      await page.goto('/reset-password?token=used-or-expired-link', { waitUntil: 'domcontentloaded' });
      await page.getByRole('link', { name: 'Request a new reset link' }).waitFor();
      await expectNoViolations(page);
      await page.goto(`/reset-password?token=${linkToken(passwordResetTokens, userId)}`, {
        waitUntil: 'domcontentloaded',
      });
      await page.getByRole('button', { name: 'Set New Password' }).click();
      await page.getByText('Password is required').first().waitFor();
      await expectNoViolations(page);

      // Verify email: a live link (verified), then a dead one.
      await page.goto(`/verify-email?token=${linkToken(emailVerificationTokens, userId)}`, {
        waitUntil: 'domcontentloaded',
      });
      await page.getByText('Your email address has been verified. Thank you!').waitFor();
      await expectNoViolations(page);
      await page.goto('/verify-email?token=used-or-expired-link', { waitUntil: 'domcontentloaded' });
      await page.getByRole('alert').waitFor();
      await expectNoViolations(page);
    },
  );

  it.concurrent.each(SIZES)(
    'the first-visit city prompt, the dialogs, and the empty and error states at %s size',
    { timeout: 85_000 },
    async (_size, viewport) => {
      // A first visit: the city prompt opens by itself.
      const first = await newContext(world.browser, baseURL, viewport, { firstVisit: true });
      try {
        const page = await first.context.newPage();
        await page.goto('/', { waitUntil: 'domcontentloaded' });
        await page.getByRole('dialog', { name: 'Select Your City' }).waitFor();
        await expectNoViolations(page);
      } finally {
        await first.context.close();
      }

      const { page } = await openSignedIn(viewport);
      // The city picker from the header, the app download dialog from the footer, the Share dialog.
      await page.goto('/', { waitUntil: 'domcontentloaded' });
      await page
        .getByRole('button', { name: /^City:/ })
        .locator('visible=true')
        .click();
      const picker = page.getByRole('dialog', { name: 'Select Your City' });
      await picker.waitFor();
      await expectNoViolations(page);
      await picker.getByRole('button', { name: 'Close' }).click();
      await picker.waitFor({ state: 'detached' });
      await page.getByRole('contentinfo').getByRole('button').first().click();
      const app = page.getByRole('dialog', { name: 'Download our app' });
      await app.waitFor();
      await expectNoViolations(page);
      await app.getByRole('button', { name: 'Close' }).click();
      await app.waitFor({ state: 'detached' });
      // The signed-in menu: the phone's menu panel, the desktop's user menu.
      if (viewport === PHONE_390) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page
          .getByRole('navigation', { name: 'Mobile' })
          .getByRole('button', { name: 'Logout' })
          .waitFor();
      } else {
        await page.getByRole('button', { name: 'Hi, Meera Iyer' }).click();
        await page.getByRole('button', { name: 'Logout' }).waitFor();
      }
      await expectNoViolations(page);
      await page.goto('/events/retro-bollywood-mumbai', { waitUntil: 'domcontentloaded' });
      await page.getByRole('button', { name: 'Share' }).click();
      await page.getByRole('dialog', { name: 'Share this event' }).waitFor();
      await expectNoViolations(page);

      // Empty: a search with no results, My Bookings with none.
      await page.goto('/search?q=zzqxv', { waitUntil: 'domcontentloaded' });
      await page.getByText('No events found for "zzqxv"').waitFor();
      await expectNoViolations(page);
      await page.goto('/my-bookings', { waitUntil: 'domcontentloaded' });
      await page.getByText("You haven't booked any events yet.").waitFor();
      await expectNoViolations(page);

      // Errors: an unknown address, a missing event, a missing ticket, and an event that failed to load.
      await page.goto('/no-such-page', { waitUntil: 'domcontentloaded' });
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await expectNoViolations(page);
      await page.goto('/events/no-such-event', { waitUntil: 'domcontentloaded' });
      await page.getByRole('heading', { name: "We couldn't find this event" }).waitFor();
      await expectNoViolations(page);
      await page.goto('/ticket/no-such-booking', { waitUntil: 'domcontentloaded' });
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectNoViolations(page);
      // The event page when the server fails: the API answers 500, and the page comes without its first
      // data, as from a server whose query failed while writing it (slow-and-failing.test.ts).
      await page.route('**/trpc/**', (route) =>
        route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' }),
      );
      await page.route('**/events/retro-bollywood-mumbai', async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace(
          /<script type="application\/json" id="initial-data">.*?<\/script>/s,
          '',
        );
        await route.fulfill({ response, body });
      });
      await page.goto('/events/retro-bollywood-mumbai', { waitUntil: 'domcontentloaded' });
      await page.getByRole('alert').filter({ hasText: 'Failed to load event' }).waitFor();
      await expectNoViolations(page);
      await page.unroute('**/trpc/**');
    },
  );
});
