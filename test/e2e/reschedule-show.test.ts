import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { formatBookingDate, formatLongDate, formatTime, indiaCalendarDay } from '../../shared/dates.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { ticketTypes } from '../../src-server/db/schema/catalog.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import { insertBookingWithEvent } from '../helpers/bookings.ts';
import { newContext, PHONE_390, saveScreenshot } from '../helpers/browser.ts';
import { signInNewBuyer } from '../helpers/buyer.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';

const DAY = 86_400_000;

describe('rescheduling a show in Chromium at phone size', () => {
  const world = useE2eWorld();

  it('the organiser moves a show to another date from the editor; the holder’s ticket shows the new date and where it moved from', async () => {
    const baseURL = e2eServer().baseURL;
    const db = world.database.db;
    const organiser = await newContext(world.browser, baseURL, PHONE_390);
    const { userId: ownerId } = await signInNewBuyer(db, organiser.context, baseURL);
    writeAccountRole(db, ownerId, 'organiser', null, new Date());
    const holder = await newContext(world.browser, baseURL, PHONE_390);
    const { userId: holderId } = await signInNewBuyer(db, holder.context, baseURL);
    const sale = insertBookingWithEvent(db, new Date(), { userId: holderId, event: { ownerId } });
    // Non-refundable: only the move to another date lets the holder cancel.
    db.update(ticketTypes)
      .set({ isRefundable: false })
      .where(eq(ticketTypes.id, sale.row.ticketType.id))
      .run();

    const oldStart = sale.row.ticketSlot;
    const newDay = indiaCalendarDay(new Date(Date.parse(oldStart) + 7 * DAY));
    const newDayLabel = formatLongDate(new Date(`${newDay}T00:00:00+05:30`));
    const slotLabel = `${formatTime(oldStart)} – ${formatTime(sale.row.ticketSlotEnd)}`;

    const page = await organiser.context.newPage();
    await page.goto(`/organiser/events/${sale.eventId}/edit`);
    await page.getByText('Change date or time').click();
    const form = page.getByRole('form', { name: `Change date or time of slot ${slotLabel}` });
    await form.getByLabel('Date').fill(newDay);
    await form.getByLabel('New start (India time)').fill('18:00');
    await form.getByLabel('New end (India time)').fill('21:00');
    await form.getByText('may cancel for a full refund until the show starts').waitFor();
    await saveScreenshot(form, 'reschedule-form-phone.png');
    await form.getByRole('button', { name: 'Move to this date' }).click();
    // The slot now sits under its new date; the old, empty date is gone.
    await page.getByRole('heading', { name: newDayLabel, level: 3, exact: true }).waitFor();
    await page
      .getByRole('heading', { name: formatLongDate(sale.row.ticketDate), level: 3 })
      .waitFor({ state: 'detached' });
    await saveScreenshot(
      page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: newDayLabel, level: 3, exact: true }) }),
      'reschedule-editor-phone.png',
    );

    const moved = db.select().from(bookings).where(eq(bookings.id, sale.bookingId)).get()!;
    expect(moved).toMatchObject({ rescheduledFrom: oldStart, status: 'confirmed' });
    expect(indiaCalendarDay(moved.ticketSlot)).toBe(newDay);
    const mail = db
      .select()
      .from(outbox)
      .all()
      .find((m) => m.idempotencyKey.startsWith(`slot-moved:${sale.bookingId}:`));
    expect(mail?.subject).toContain('New date for');

    const ticket = await holder.context.newPage();
    await ticket.goto(`/ticket/${sale.bookingId}`);
    await ticket.getByText(`${formatBookingDate(moved.ticketSlot)}, 6:00 PM - 9:00 PM`).waitFor();
    await ticket
      .getByText(`Moved from ${formatBookingDate(oldStart)}, ${formatTime(oldStart)} by the organiser`)
      .waitFor();
    await ticket.getByText('The organiser moved this show to a new date').waitFor();
    await ticket.getByRole('button', { name: 'Cancel booking' }).waitFor();
    await saveScreenshot(ticket, 'reschedule-ticket-phone.png', { fullPage: true });

    await organiser.context.close();
    await holder.context.close();
  });
});
