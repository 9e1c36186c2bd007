import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Db } from '../../src-server/db/client.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import type { BrowserContext, Page } from './browser.ts';
import type { TicketedEvent } from './inventory.ts';

/**
 * A fresh buyer with no phone or state on the profile (so checkout has something to validate), signed in.
 * Verified, as Proceed requires, unless `{ verified: false }` (issue 19).
 */
export async function signInNewBuyer(
  db: Db,
  context: BrowserContext,
  baseURL: string,
  options: { verified?: boolean } = {},
) {
  const now = new Date();
  const userId = randomUUID();
  const email = `e2e-buyer-${userId.slice(0, 8)}@example.com`;
  db.insert(users)
    .values({
      id: userId,
      email,
      name: 'Meera Iyer',
      isEmailVerified: options.verified ?? true,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .run();
  const { token } = createSession(db, userId, now);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL }]);
  return { userId, email };
}

/** On the event's ticket selection, two of its 'Gold Circle' type at ₹999.99 each. */
export async function selectTwoGold(page: Page, ev: TicketedEvent) {
  await page.goto(`/select-tickets/${ev.eventId}`);
  await page.getByRole('heading', { name: ev.eventName }).waitFor();
  await page.getByRole('button', { name: 'Select Ticket: Gold Circle' }).click();
  await page.getByRole('button', { name: 'Add one Gold Circle' }).click();
  await page.getByText('2 Ticket(s)').waitFor();
  await expect(page.getByTestId('selection-total').textContent()).resolves.toBe('₹1,999.98');
}
