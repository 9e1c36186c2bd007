import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatInIndia } from '../../shared/dates.ts';
import { EDITOR_MESSAGES } from '../../shared/event-editor-schemas.ts';
import { GST_MESSAGES } from '../../shared/gst-schemas.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { eventDates, events } from '../../src-server/db/schema/catalog.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { reserveSeats } from '../../src-server/services/inventory/holds.ts';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import { newContext } from '../helpers/browser.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent, type TicketedEvent } from '../helpers/inventory.ts';

/**
 * The console's forms behave alike (issue 14's quality bar): a version conflict offers a Reload that
 * shows the other person's change, the GST rate's error sits on its field, and the profile and team
 * forms warn before unsaved changes are lost.
 */
describe('console forms in Chromium', () => {
  const world = useE2eWorld();
  const baseURL = e2eServer().baseURL;
  let token = '';
  let ownerId = '';
  let event: TicketedEvent;

  beforeAll(() => {
    const { db } = world.database;
    const now = new Date();
    const id = randomUUID();
    db.insert(users)
      .values({
        id,
        email: `forms-${id.slice(0, 8)}@example.com`,
        name: 'Farah Forms',
        phone: '9876543210',
        isEmailVerified: true,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .run();
    writeAccountRole(db, id, 'organiser', null, now);
    token = createSession(db, id, now).token;
    ownerId = id;
    event = createTicketedEvent(db, { name: `Forms Night ${id.slice(0, 6)}`, now });
    db.update(events).set({ ownerId: id }).where(eq(events.id, event.eventId)).run();
  });

  async function ownerPage() {
    const { context, cspViolations } = await newContext(world.browser, baseURL);
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL }]);
    return { context, cspViolations, page: await context.newPage() };
  }

  it('a save refused because someone else changed the event offers Reload, which shows their change', async () => {
    const { context, cspViolations, page } = await ownerPage();
    await page.goto(`/organiser/events/${event.eventId}/edit`);
    await page.getByRole('heading', { level: 1, name: event.eventName }).waitFor();
    await page.getByLabel('Language').fill('Marathi');

    // Meanwhile a co-organiser renames the event (their save claims the next version).
    const renamed = `${event.eventName} (renamed)`;
    world.database.db
      .update(events)
      .set({ name: renamed, version: sql`${events.version} + 1` })
      .where(eq(events.id, event.eventId))
      .run();

    await page.getByRole('button', { name: 'Save details' }).click();
    // Beside the form that saved, with Reload, and only there (issue 35: no banner out of sight).
    const alert = page
      .getByRole('alert')
      .filter({ hasText: EDITOR_MESSAGES.staleVersion, has: page.getByRole('button', { name: 'Reload' }) });
    await alert.waitFor();
    // Nothing of this page's older form was written over their change.
    expect(
      world.database.db.select({ name: events.name }).from(events).where(eq(events.id, event.eventId)).get(),
    ).toEqual({ name: renamed });
    expect(await page.getByText(EDITOR_MESSAGES.staleVersion).count()).toBe(1);

    await alert.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    await expect.poll(() => page.getByLabel('Event name').inputValue()).toBe(renamed);
    expect(await page.getByLabel('Language').inputValue()).not.toBe('Marathi');
    expect(await alert.count()).toBe(0);

    // From the reloaded event, the same edit saves.
    await page.getByLabel('Language').fill('Marathi');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.getByText('Saved.').first().waitFor();
    expect(
      world.database.db
        .select({ name: events.name, language: events.language })
        .from(events)
        .where(eq(events.id, event.eventId))
        .get(),
    ).toEqual({ name: renamed, language: 'Marathi' });
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it("a form's own refusal shows once, next to the form", async () => {
    const { context, cspViolations, page } = await ownerPage();
    await page.goto(`/organiser/events/${event.eventId}/edit`);
    await page.getByRole('heading', { level: 1, name: event.eventName }).waitFor();
    const { dateOfEvent } = world.database.db
      .select({ dateOfEvent: eventDates.dateOfEvent })
      .from(eventDates)
      .where(eq(eventDates.id, event.dateId))
      .get()!;
    const day = formatInIndia(dateOfEvent, 'yyyy-MM-dd');

    // The server refuses a date the event already has: the Add date form says so, and nothing else does.
    await page.getByLabel('New date').fill(day);
    await page.getByRole('button', { name: 'Add date' }).click();
    const addDate = page.locator('form').filter({ has: page.getByRole('button', { name: 'Add date' }) });
    await addDate.getByText(EDITOR_MESSAGES.dateExists).waitFor();
    expect(await page.getByText(EDITOR_MESSAGES.dateExists).count()).toBe(1);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it("a button's refusal (Remove date on a date something was bought from) shows beside the button", async () => {
    const { db } = world.database;
    const now = new Date();
    const held = createTicketedEvent(db, { name: `Held Night ${ownerId.slice(0, 6)}`, now });
    db.update(events).set({ ownerId }).where(eq(events.id, held.eventId)).run();
    // Every booking begins as a hold: one hold is enough for the date to be kept, not deleted.
    reserveSeats(
      db,
      {
        userId: ownerId,
        eventId: held.eventId,
        eventDateId: held.dateId,
        slotId: held.slotId,
        lines: [{ ticketTypeId: held.ticketTypeIds[0]!, quantity: 1 }],
        details: {
          name: 'Farah Forms',
          email: 'farah@example.com',
          phone: '9876543210',
          state: 'Maharashtra',
        },
        userCity: null,
        platformFeeRate: null,
      },
      now,
    );
    const { context, cspViolations, page } = await ownerPage();
    await page.goto(`/organiser/events/${held.eventId}/edit`);
    await page.getByRole('button', { name: /^Remove date / }).click();
    // In the date's own block, under its Remove date button (issue 35: not in a banner at the top).
    const dateBlock = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: /^Remove date / }) })
      .first();
    await dateBlock.getByRole('alert').getByText(EDITOR_MESSAGES.hasBookings('date')).waitFor();
    expect(await page.getByText(EDITOR_MESSAGES.hasBookings('date')).count()).toBe(1);
    expect(
      db.select({ id: eventDates.id }).from(eventDates).where(eq(eventDates.eventId, held.eventId)).all(),
    ).toHaveLength(1);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('the GST rate form checks with the shared schema and puts its error on the field', async () => {
    const { context, page } = await ownerPage();
    await page.goto(`/organiser/events/${event.eventId}/edit`);
    const rate = page.getByLabel('GST on admission (%)');
    // 28 % left the schedule on 22 September 2025 (issue 36).
    await rate.fill('28');
    await page.getByRole('button', { name: 'Save GST settings' }).click();
    await page.getByText(GST_MESSAGES.taxRate).waitFor();
    await expect.poll(() => rate.getAttribute('aria-invalid')).toBe('true');
    const described = (await rate.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain(GST_MESSAGES.taxRate);

    await rate.fill('40');
    await page.getByRole('button', { name: 'Save GST settings' }).click();
    await page.getByRole('region', { name: 'GST' }).getByText('Saved.').waitFor();
    expect(
      world.database.db
        .select({ rate: events.taxRate })
        .from(events)
        .where(eq(events.id, event.eventId))
        .get(),
    ).toEqual({ rate: 40 });
    await context.close();
  });

  it('the team invite and organiser profile forms ask before unsaved changes are left', async () => {
    const { context, page } = await ownerPage();
    await page.goto(`/organiser/events/${event.eventId}/team`);
    await page.getByLabel('Their e-mail').fill('half-typed@example.com');
    await page.getByRole('navigation', { name: 'This event' }).getByRole('link', { name: 'Sales' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.getByRole('button', { name: 'Stay on this page' }).click();
    expect(new URL(page.url()).pathname).toBe(`/organiser/events/${event.eventId}/team`);
    expect(await page.getByLabel('Their e-mail').inputValue()).toBe('half-typed@example.com');
    // Emptied, the form is clean again: the next page opens without asking.
    await page.getByLabel('Their e-mail').fill('');

    await page.goto('/organiser/profile');
    await page.getByLabel('Legal name').fill('Forms Collective LLP');
    await page.getByRole('link', { name: 'Organiser console' }).click();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL((url) => url.pathname === '/organiser');
    await context.close();
  });
});
