import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDITOR_MESSAGES } from '../../shared/event-editor-schemas.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { events, slots, ticketTypes } from '../../src-server/db/schema/catalog.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { reserveSeats } from '../../src-server/services/inventory/holds.ts';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import { isOnScreen, newContext, PHONE_390, saveScreenshot } from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent, type TicketedEvent } from '../helpers/inventory.ts';

/**
 * Issue 35 at phone size (390×844), items 17 and 20: a second slot at the same start is refused beside
 * its field, "Copy ticket types to all slots" asks first and names the seats it adds, and a refused
 * Remove shows next to its button, in view, not ~2,900 px above it.
 */
describe('the event editor on a phone: duplicate slots, copies and refusals', () => {
  const world = useE2eWorld();
  const baseURL = e2eServer().baseURL;
  let token = '';
  let event: TicketedEvent;

  beforeAll(() => {
    const { db } = world.database;
    const now = new Date();
    const id = randomUUID();
    db.insert(users)
      .values({
        id,
        email: `slots-${id.slice(0, 8)}@example.com`,
        name: 'Sana Slots',
        phone: '9876543210',
        isEmailVerified: true,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .run();
    writeAccountRole(db, id, 'organiser', null, now);
    token = createSession(db, id, now).token;
    // A 940-seat hall, one show at 7:00 PM (India time), someone holding a seat of it.
    event = createTicketedEvent(db, {
      name: `Hall Night ${id.slice(0, 6)}`,
      types: [{ name: 'Stalls', pricePaise: 50_000, totalTickets: 940 }],
      now,
    });
    db.update(events).set({ ownerId: id }).where(eq(events.id, event.eventId)).run();
    reserveSeats(
      db,
      {
        userId: id,
        eventId: event.eventId,
        eventDateId: event.dateId,
        slotId: event.slotId,
        lines: [{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 }],
        details: { name: 'Sana Slots', email: 'sana@example.com', phone: '9876543210', state: 'Maharashtra' },
        userCity: null,
        platformFeeRate: null,
      },
      now,
    );
  });

  it('refuses the twin slot on its field, asks before copying, and shows a refused Remove beside its button', async () => {
    const { db } = world.database;
    const { context, cspViolations } = await newContext(world.browser, baseURL, PHONE_390);
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL }]);
    const page = await context.newPage();
    await page.goto(`/organiser/events/${event.eventId}/edit`);
    await page.getByRole('heading', { level: 1, name: event.eventName }).waitFor();
    const slotsOfEvent = () =>
      db.select({ id: slots.id }).from(slots).where(eq(slots.eventDateId, event.dateId)).all();

    // The Add slot form starts at 7:00 PM, the show's own start: the seller's twin slot.
    const addSlot = page.getByRole('form', { name: /^Add slot on / });
    await addSlot.getByRole('button', { name: 'Add slot' }).click();
    const start = addSlot.getByLabel('Slot start (India time)');
    await expect.poll(() => start.getAttribute('aria-invalid')).toBe('true');
    const described = (await start.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain(EDITOR_MESSAGES.slotStartTaken);
    expect(slotsOfEvent()).toHaveLength(1);

    // A matinee is a separate show.
    await start.fill('14:00');
    await addSlot.getByLabel('Slot end (India time)').fill('16:30');
    await addSlot.getByRole('button', { name: 'Add slot' }).click();
    // Slots are list items inside their date's: the last match is the slot's own.
    const matinee = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: /^Slot 2:00 PM/ }) })
      .last();
    await matinee.waitFor();

    // Copying asks first, naming the slots and seats; "Don't copy" adds nothing.
    const evening = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: /^Slot 7:00 PM/ }) })
      .last();
    await evening.getByRole('button', { name: 'Copy ticket types to all slots' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy these ticket types to all slots?' });
    await dialog
      .getByText('This adds 1 ticket type to 1 other slot, putting 940 seats more on sale.')
      .waitFor();
    await dialog.getByRole('button', { name: "Don't copy" }).click();
    await dialog.waitFor({ state: 'detached' });
    const matineeTypes = () => {
      const other = slotsOfEvent().find((s) => s.id !== event.slotId)!;
      return db
        .select({ id: ticketTypes.id })
        .from(ticketTypes)
        .where(eq(ticketTypes.slotId, other.id))
        .all();
    };
    expect(matineeTypes()).toEqual([]);
    await evening.getByRole('button', { name: 'Copy ticket types to all slots' }).click();
    await dialog.getByRole('button', { name: 'Copy and add 940 seats' }).click();
    await dialog.waitFor({ state: 'detached' });
    await matinee.getByText('0 sold, 0 held of 940').waitFor();
    expect(matineeTypes()).toHaveLength(1);

    // Removing the held type is refused: the alert sits in its row, right under the button, in view.
    const remove = evening.getByRole('button', { name: 'Remove Stalls' });
    await remove.click();
    const row = evening
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Remove Stalls' }) });
    const alert = row.getByRole('alert');
    await alert.getByText(EDITOR_MESSAGES.hasBookings('ticket type')).waitFor();
    expect(await page.getByText(EDITOR_MESSAGES.hasBookings('ticket type')).count()).toBe(1);
    await expect.poll(() => isOnScreen(alert)).toBe(true);
    const [button, shown] = [(await remove.boundingBox())!, (await alert.boundingBox())!];
    expect(shown.y - (button.y + button.height)).toBeGreaterThanOrEqual(0);
    expect(shown.y - (button.y + button.height)).toBeLessThan(60);
    // Far down the page (the seller's ~2,900 px): the banner at the top was out of sight.
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(844);
    await saveScreenshot(page, 'editor-remove-refused-phone-390.png');
    expect(cspViolations).toEqual([]);
    await context.close();
  });
});
