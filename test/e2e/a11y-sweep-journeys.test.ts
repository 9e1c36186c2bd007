import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { waitingRooms, waitlistEntries } from '../../src-server/db/schema/on-sale.ts';
import { DESKTOP, EVERY_IMPACT, expectNoA11yViolations, type Page, PHONE_390 } from '../helpers/browser.ts';
import { buyThroughSimulator, useE2eContexts, useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';

/**
 * The buyer's pages that only a journey between people reaches (issue 39), through axe-core at phone and
 * desktop size, held to every impact as a11y-sweep.test.ts holds the pages: a sold-out type's waiting-list
 * form, My Bookings' Transfer and Cancel dialogs, a transfer's accept page (signed out and as its
 * recipient), a waiting-list offer and My Bookings showing it, and an event's waiting room before the sale
 * opens and once it has, with a place in the queue. The people act through the API the
 * pages call, and the transfer's link is read from the outbox where its mail waits.
 */
const expectNoViolations = (page: Page) => expectNoA11yViolations(page, EVERY_IMPACT);

describe('accessibility sweep of the buyer journeys between people', () => {
  const world = useE2eWorld();
  const { baseURL, open, openSignedIn } = useE2eContexts(world);
  /** A tRPC mutation as the page's signed-in buyer, as the app's own buttons send it. */
  const post = (page: Page, procedure: string, data: unknown) =>
    page.request.post(`/trpc/${procedure}`, {
      headers: { origin: baseURL, 'content-type': 'application/json' },
      data,
    });

  it.concurrent.each([
    ['phone', PHONE_390],
    ['desktop', DESKTOP],
  ])(
    "a transfer's accept page, the waiting room and a waiting-list offer at %s size",
    { timeout: 85_000 },
    async (_size, viewport) => {
      const db = world.database.db;
      const ev = createTicketedEvent(db, {
        now: new Date(),
        types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 1 }],
      });
      const typeId = ev.ticketTypeIds[0]!;
      const sender = await openSignedIn(viewport);
      const recipient = await openSignedIn(viewport);
      const stranger = await open(viewport);
      const anon = await stranger.context.newPage();

      // The only ticket is bought: sold out. The recipient asks for the waiting list from ticket selection.
      const bookingId = await buyThroughSimulator(sender.page, baseURL, ev, sender.email);
      await recipient.page.goto(`/select-tickets/${ev.eventId}`, { waitUntil: 'domcontentloaded' });
      await recipient.page.getByRole('button', { name: 'Join waiting list' }).click();
      const form = recipient.page.getByRole('form', { name: 'Join the waiting list for Gold Circle' });
      await form.getByRole('button', { name: 'Join waiting list' }).click();
      await form.getByText('Phone number is required').waitFor();
      await expectNoViolations(recipient.page);
      const joined = await post(recipient.page, 'waitlist.join', {
        ticketTypeId: typeId,
        quantity: 1,
        details: { name: 'Kabir Shah', email: recipient.email, phone: '9876543210', state: 'Karnataka' },
      });
      expect(joined.status(), await joined.text()).toBe(200);

      // My Bookings' dialogs on the sender's booking: Transfer ticket with its messages, Cancel booking.
      await sender.page.goto('/my-bookings', { waitUntil: 'domcontentloaded' });
      const card = sender.page.getByRole('article').filter({ hasText: bookingId });
      await card.getByRole('button', { name: 'Transfer ticket' }).click();
      const transfer = sender.page.getByRole('dialog', { name: 'Transfer this booking' });
      await transfer.getByRole('button', { name: 'Send transfer' }).click();
      await transfer.getByText('Name is required').waitFor();
      await expectNoViolations(sender.page);
      await sender.page.keyboard.press('Escape');
      await transfer.waitFor({ state: 'detached' });
      await card.getByRole('button', { name: 'Cancel booking' }).click();
      await sender.page.getByRole('dialog', { name: 'Cancel this booking?' }).waitFor();
      await expectNoViolations(sender.page);
      await sender.page.keyboard.press('Escape');

      // A transfer offered to the recipient: its page signed out, then signed in as the recipient.
      const started = await post(sender.page, 'transfers.start', {
        bookingId,
        name: 'Kabir Shah',
        email: recipient.email,
        mobile: '',
      });
      expect(started.status(), await started.text()).toBe(200);
      const mail = db
        .select({ text: outbox.text })
        .from(outbox)
        .where(and(eq(outbox.to, recipient.email), like(outbox.subject, '%was sent to you%')))
        .get();
      const transferPath = new URL(mail!.text.match(/https?:\/\/\S+\/transfers\/\S+/)![0]).pathname;
      await anon.goto(transferPath, { waitUntil: 'domcontentloaded' });
      await anon.getByRole('link', { name: 'Create an account' }).waitFor();
      await expectNoViolations(anon);
      await recipient.page.goto(transferPath, { waitUntil: 'domcontentloaded' });
      await recipient.page.getByRole('button', { name: 'Accept ticket' }).waitFor();
      await expectNoViolations(recipient.page);

      // The sender cancels the transfer and then the booking: the seat is offered to the recipient.
      const pending = await post(sender.page, 'transfers.cancel', { bookingId });
      expect(pending.status(), await pending.text()).toBe(200);
      const cancelled = await post(sender.page, 'bookings.cancel', { bookingId });
      expect(cancelled.status(), await cancelled.text()).toBe(200);
      const entry = db.select().from(waitlistEntries).where(eq(waitlistEntries.ticketTypeId, typeId)).get();
      expect(entry?.status).toBe('offered');
      await recipient.page.goto('/my-bookings', { waitUntil: 'domcontentloaded' });
      await recipient.page
        .getByTestId('waitlist-entry')
        .getByText(/Offer: pay by/)
        .waitFor();
      await expectNoViolations(recipient.page);
      await recipient.page.goto(`/waitlist/offers/${entry!.id}`, { waitUntil: 'domcontentloaded' });
      await recipient.page.getByTestId('offer-amounts').waitFor();
      await expectNoViolations(recipient.page);

      // The waiting room before the sale opens: a place kept for the signed-in buyer, and the way in for
      // someone signed out.
      const room = createTicketedEvent(db, { now: new Date() });
      db.insert(waitingRooms)
        .values({
          eventId: room.eventId,
          enabled: true,
          opensAt: new Date(Date.now() + 3_600_000).toISOString(),
          // One a minute: the first place is let in a minute after opening, long after its page is audited.
          admitPerMinute: 1,
          updatedAt: new Date().toISOString(),
        })
        .run();
      await sender.page.goto(`/select-tickets/${room.eventId}`, { waitUntil: 'domcontentloaded' });
      await sender.page.waitForURL(`**/events/${room.eventId}/waiting-room`);
      await sender.page.getByText('You’re in.').waitFor();
      await expectNoViolations(sender.page);
      await anon.goto(`/events/${room.eventId}/waiting-room`, { waitUntil: 'domcontentloaded' });
      await anon.getByRole('link', { name: 'Sign in to take your place' }).waitFor();
      await expectNoViolations(anon);
      // The sale opens: the buyer waiting has a place in the queue.
      world.database.sqlite
        .prepare('update waiting_rooms set opens_at = ? where event_id = ?')
        .run(new Date(Date.now() + 1_000).toISOString(), room.eventId);
      // The server's copy of the room is at most 1 s old; the page, which counted down to the old time,
      // is opened again (as waiting-room.test.ts does).
      await sender.page.waitForTimeout(1_100);
      await sender.page.reload({ waitUntil: 'domcontentloaded' });
      await sender.page.getByTestId('position').waitFor({ timeout: 20_000 });
      await expectNoViolations(sender.page);
    },
  );
});
