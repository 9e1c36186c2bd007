import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { appSecretFile } from '../../src-server/app-secret.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { accountRoles } from '../../src-server/db/schema/roles.ts';
import { setGateStaff } from '../../src-server/services/tickets/gate-staff.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import {
  DESKTOP,
  expectNoSeriousA11yViolations,
  newContext,
  type Page,
  PHONE_390,
  saveScreenshot,
} from '../helpers/browser.ts';
import { signInNewBuyer } from '../helpers/buyer.ts';
import { openMail } from '../helpers/dev-mail.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { buyThroughSimulator, useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';

const PASSWORD = 'secret-pass';

/**
 * One journey in two steps (the second continues from the first's state): the sender's side, then the
 * recipient's and the gate's.
 */
describe('a buyer transfers a booking, in Chromium', () => {
  const world = useE2eWorld();
  const baseURL = e2eServer().baseURL;
  const secret = readFileSync(appSecretFile(e2eServer().dataDir), 'utf8').trim();
  const recipientEmail = `e2e-friend-${randomUUID().slice(0, 8)}@example.com`;
  let ev: ReturnType<typeof createTicketedEvent>;
  let sender: Awaited<ReturnType<typeof newContext>>;
  let desktop: Awaited<ReturnType<typeof newContext>>;
  let page: Page;
  let wide: Page;
  let bookingId: string;
  let buyerEmail: string;

  afterAll(async () => {
    await sender?.context.close();
    await desktop?.context.close();
  });

  it('buy → My Bookings → Transfer ticket (field messages from the shared schema) → transfer pending', async () => {
    ev = createTicketedEvent(world.database.db, {
      name: `Qawwali Night ${randomUUID().slice(0, 6)}`,
      now: new Date(),
    });

    // The sender buys one ticket.
    sender = await newContext(world.browser, baseURL, PHONE_390);
    buyerEmail = (await signInNewBuyer(world.database.db, sender.context, baseURL)).email;
    page = await sender.context.newPage();
    await page.goto('/');
    bookingId = await buyThroughSimulator(page, baseURL, ev, buyerEmail, 1);

    // My Bookings → Transfer ticket: the shared schema's messages beside the fields, then sent.
    await page.goto('/my-bookings');
    const card = page.getByRole('article').filter({ hasText: bookingId });
    await card.getByRole('button', { name: 'Transfer ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer this booking' });
    await dialog.getByLabel('Their name').fill('Kabir Shah');
    await dialog.getByLabel('Their email').fill('not-an-address');
    await dialog.getByLabel('Their mobile (optional)').fill('12345');
    await dialog.getByRole('button', { name: 'Send transfer' }).click();
    await dialog.getByText('Please enter a valid email address').waitFor();
    await dialog.getByText('Please enter a valid 10-digit mobile number').waitFor();
    await dialog.getByLabel('Their email').fill(recipientEmail);
    await dialog.getByLabel('Their mobile (optional)').fill('+91 98765 43219');
    await saveScreenshot(page, `transfer-dialog-390.png`);
    await dialog.getByRole('button', { name: 'Send transfer' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByText('Transfer pending').waitFor();
    await card.getByText(recipientEmail).waitFor();
    await card.getByRole('button', { name: 'Cancel transfer' }).waitFor();
    await saveScreenshot(page, `transfer-pending-390.png`, { fullPage: true });

    // The same on a desktop, and its dialog passes the accessibility check.
    desktop = await newContext(world.browser, baseURL, DESKTOP);
    await desktop.context.addCookies(await sender.context.cookies());
    wide = await desktop.context.newPage();
    await wide.goto('/my-bookings');
    await wide.getByRole('article').filter({ hasText: bookingId }).getByText('Transfer pending').waitFor();
    await expectNoSeriousA11yViolations(wide);
    await saveScreenshot(wide, `transfer-pending-1280.png`);
    expect(sender.cspViolations).toEqual([]);
  });

  it('the recipient opens the mail, signs up with that address and accepts → the sender sees "Transferred" → old QR refused at the gate, new one admitted', async () => {
    expect(bookingId, 'the first step bought and offered the booking').toBeTruthy();
    const oldQr = signTicketToken(secret, bookingId);

    // The recipient opens the mail, follows its link, signs up with that address and accepts.
    const recipient = await newContext(world.browser, baseURL, PHONE_390);
    const inbox = await recipient.context.newPage();
    await openMail(inbox, recipientEmail, 'was sent to you on Jalsa');
    await inbox.goto(`${inbox.url()}/html`);
    await inbox.getByRole('link', { name: 'Accept the ticket' }).click();
    await inbox.waitForURL((url) => url.pathname.startsWith('/transfers/'));
    await inbox.getByRole('heading', { name: `A ticket for ${ev.eventName}` }).waitFor();
    await saveScreenshot(inbox, `transfer-offer-signed-out-390.png`);
    await inbox.getByRole('link', { name: 'Create an account' }).click();
    await inbox.waitForURL((url) => url.pathname === '/SignUp');
    await inbox.getByLabel('Name').fill('Kabir Shah');
    await inbox.getByLabel('Email').fill(recipientEmail);
    await inbox.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await inbox.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
    await inbox.getByLabel(/I accept the/).check();
    await inbox.getByRole('button', { name: 'Create Account' }).click();
    await inbox.waitForURL((url) => url.pathname.startsWith('/transfers/'));
    await inbox.getByRole('button', { name: 'Accept ticket' }).waitFor();
    await expectNoSeriousA11yViolations(inbox);
    await inbox.getByRole('button', { name: 'Accept ticket' }).click();
    await inbox.getByText('The ticket is yours.').waitFor();
    await saveScreenshot(inbox, `transfer-accepted-390.png`);
    await inbox.getByRole('link', { name: 'View your ticket' }).click();
    await inbox.waitForURL((url) => url.pathname === `/ticket/${bookingId}`);

    const moved = world.database.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;
    expect(moved).toMatchObject({ userName: 'Kabir Shah', userEmail: recipientEmail, transferCount: 1 });
    const ticket = await recipient.context.request.get(
      `/trpc/bookings.byId?input=${encodeURIComponent(JSON.stringify({ bookingId }))}`,
    );
    const newQr = ((await ticket.json()) as { result: { data: { qrToken: string } } }).result.data.qrToken;
    expect(newQr).not.toBe(oldQr);

    // The sender sees it as transferred, with no QR.
    await page.goto('/my-bookings');
    const gone = page.getByRole('article').filter({ hasText: bookingId });
    await gone.getByText('Transferred', { exact: true }).waitFor();
    await gone.getByText('Given to').waitFor();
    await saveScreenshot(page, `transfer-sent-390.png`, { fullPage: true });
    await wide.goto('/my-bookings');
    await wide.getByRole('article').filter({ hasText: bookingId }).getByText('Given to').waitFor();
    await saveScreenshot(wide, `transfer-sent-1280.png`);

    // At the gate (the gate's online check): the old QR is refused, the new one admits.
    const staff = await newContext(world.browser, baseURL, PHONE_390);
    const { email: staffEmail } = await signInNewBuyer(world.database.db, staff.context, baseURL);
    expect(await setGateStaff(world.database.db, staffEmail, ev.eventId, true, new Date())).toBe('done');
    const scan = async (token: string) => {
      const res = await staff.context.request.post('/trpc/gate.scan', {
        headers: { origin: baseURL, 'content-type': 'application/json' },
        data: {
          eventId: ev.eventId,
          slotId: ev.slotId,
          gate: 'North gate',
          deviceId: 'e2e-device',
          scanId: randomUUID(),
          token,
          persons: 1,
        },
      });
      expect(res.ok(), await res.text()).toBe(true);
      return ((await res.json()) as { result: { data: { outcome: string; message: string } } }).result.data;
    };
    expect(await scan(oldQr)).toMatchObject({ outcome: 'refuse', message: 'Ticket was transferred' });
    expect(await scan(newQr)).toMatchObject({ outcome: 'admit' });

    expect(recipient.cspViolations).toEqual([]);
    for (const c of [recipient, staff]) await c.context.close();
  });

  it('the organiser switches transfers off in the event editor → the buyer’s booking says why it cannot be transferred', async () => {
    const organiser = await newContext(world.browser, baseURL, DESKTOP);
    const { userId } = await signInNewBuyer(world.database.db, organiser.context, baseURL);
    world.database.db
      .insert(accountRoles)
      .values({ userId, role: 'organiser', grantedAt: new Date().toISOString() })
      .run();
    const strict = createTicketedEvent(world.database.db, {
      name: `Ghazal Evening ${randomUUID().slice(0, 6)}`,
      now: new Date(),
    });
    world.database.db.update(events).set({ ownerId: userId }).where(eq(events.id, strict.eventId)).run();
    const editor = await organiser.context.newPage();
    await editor.goto(`/organiser/events/${strict.eventId}/edit`);
    const transfers = editor.getByRole('group', { name: 'Ticket transfers' });
    await transfers.getByLabel('Transfers per booking').waitFor();
    await transfers.scrollIntoViewIfNeeded();
    await saveScreenshot(editor, `transfer-editor-1280.png`);
    await transfers.getByLabel(/Buyers may give their booking/).uncheck();
    await editor.getByRole('button', { name: 'Save details' }).click();
    await editor.getByText('Saved.').waitFor();
    const saved = world.database.db.select().from(events).where(eq(events.id, strict.eventId)).get()!;
    expect(saved.transfersAllowed).toBe(false);

    const strictId = await buyThroughSimulator(page, baseURL, strict, buyerEmail, 1);
    await page.goto('/my-bookings');
    const card = page.getByRole('article').filter({ hasText: strictId });
    await card.getByText('The organiser does not allow ticket transfers for this event.').waitFor();
    expect(await card.getByRole('button', { name: 'Transfer ticket' }).count()).toBe(0);
    await card.getByText('The organiser does not allow').scrollIntoViewIfNeeded();
    await saveScreenshot(page, `transfer-switched-off-390.png`);
    await organiser.context.close();
  });
});
