import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src-server/db/schema/accounts.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { organiserProfiles } from '../../src-server/db/schema/invoices.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import {
  DESKTOP,
  expectNoSeriousA11yViolations,
  type Locator,
  newContext,
  type Page,
  PHONE_390,
  saveScreenshot,
} from '../helpers/browser.ts';
import { signInNewBuyer } from '../helpers/buyer.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';
import { cameraBrowser, cameraFramesOf, cameraVideo } from '../helpers/fake-camera.ts';
import { createTicketedEvent, expectInventoryInvariant, type TicketedEvent } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';

/**
 * Issue 40's quality bar, walked through the UI at phone and desktop size: the organiser sets up a hidden
 * type, a shared capacity, attendee names, a T-shirt add-on and two codes in the console; a buyer books
 * two named tickets with a code and a T-shirt; the invoice shows the discount and the T-shirt's own GST;
 * the gate admits each attendee by the QR of their own and the T-shirt is handed over; the organiser refunds part and
 * cancels one ticket (used at the gate: its seat stays sold); the order history and the payout statement agree.
 *
 * Set-up that is no part of the journey is written straight to the database: the organiser's account
 * and session, their GST registration (so the invoice carries GST lines), the event with its slot and
 * three ticket types (the event editor's own e2e covers creating those), and the buyer's account.
 */
const SLOW = { timeout: 20_000 };

/**
 * What the buyer does differently at each size; the organiser's steps are the same. An order carries one
 * code (ADR 0038: a code that unlocks and discounts is one code), so the phone's buyer follows the fan
 * club's link, whose access code also takes 20 % off the hidden type, and the desktop's buyer types the
 * discount code at checkout for a public type.
 */
const RUNS = [
  {
    size: 'phone',
    viewport: PHONE_390,
    // The fan club's link: the access code unlocks the hidden type and takes 20 % off it.
    type: 'Fan Club',
    code: 'FANCLUB',
    discountPerTicket: '180.00',
  },
  {
    size: 'desktop',
    viewport: DESKTOP,
    // The public page, and a discount code typed at checkout.
    type: 'Stalls',
    code: 'SAVE10',
    discountPerTicket: '80.00',
  },
] as const;

/**
 * A console section by its heading's id: its tables are regions of the same name, so the name alone is
 * not one place.
 */
const section = (page: Page, headingId: string) => page.locator(`section[aria-labelledby="${headingId}"]`);

/** "₹1,234.56" (the first amount in the text) in paise. */
function paiseIn(text: string | null): number {
  const match = /₹([\d,]+\.\d\d)/.exec(text ?? '');
  if (!match) throw new Error(`No amount in ${text}`);
  return Math.round(Number(match[1]!.replaceAll(',', '')) * 100);
}

describe.each(RUNS)('the box office journey at $size size (issue 40)', (run) => {
  const world = useE2eWorld();
  const { baseURL } = e2eServer();
  const shot = (target: Page | Locator, name: string, fullPage = false) =>
    saveScreenshot(target, `journey-${run.size}-${name}.png`, { fullPage });
  const buyerNames = ['Kavya Menon', 'Rohan Das'];
  const state = {
    ev: {} as TicketedEvent,
    organiserToken: '',
    bookingId: '',
    codesMade: false,
    /** Each attendee's QR as the buyer's ticket page draws it, as a camera frame, in the attendees' order. */
    attendeeQrs: [] as Buffer[],
  };
  let organiser: Page;

  beforeAll(async () => {
    const { db } = world.database;
    const now = new Date();
    const organiserId = randomUUID();
    db.insert(users)
      .values({
        id: organiserId,
        email: `box-office-${organiserId.slice(0, 8)}@example.com`,
        name: 'Nandini Rao',
        isEmailVerified: true,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .run();
    writeAccountRole(db, organiserId, 'organiser', null, now);
    db.insert(organiserProfiles)
      .values({
        userId: organiserId,
        legalName: 'Rao Live Events LLP',
        address: '12 Hill Road, Bandra, Mumbai 400050',
        state: 'Maharashtra',
        gstin: '27AAPFU0939F1ZV',
        updatedAt: now.toISOString(),
      })
      .run();
    state.ev = createTicketedEvent(db, {
      now,
      city: 'Mumbai',
      name: `Box Office Night ${run.size} ${Date.now().toString(36)}`,
      types: [
        { name: 'Stalls', pricePaise: 80_000, totalTickets: 100 },
        { name: 'Balcony', pricePaise: 50_000, totalTickets: 100 },
        { name: 'Fan Club', pricePaise: 90_000, totalTickets: 20 },
      ],
    });
    db.update(events).set({ ownerId: organiserId }).where(eq(events.id, state.ev.eventId)).run();
    state.organiserToken = createSession(db, organiserId, now).token;
    const { context } = await newContext(world.browser, baseURL, run.viewport);
    await context.addCookies([{ name: SESSION_COOKIE, value: state.organiserToken, url: baseURL }]);
    organiser = await context.newPage();
  });
  afterAll(async () => {
    await organiser?.context().close();
  });

  it('the organiser hides a type, shares a capacity, asks for names, adds a T-shirt and two codes', async () => {
    const page = organiser;
    const { ev } = state;
    await page.goto(`/organiser/events/${ev.eventId}/edit`);
    await page.getByRole('heading', { name: 'Shared capacity' }).waitFor(SLOW);

    // A hidden type: the fan club's presale, sold only with its code. The type this buyer books gives each
    // person a ticket of their own (ADR 0046), so the gate admits each attendee by their own QR.
    const editType = async (name: string, settings: string[]) => {
      const type = page.locator('details').filter({ has: page.getByText(`Edit ${name}`, { exact: true }) });
      await type.getByText(`Edit ${name}`, { exact: true }).click();
      for (const label of settings) await type.getByLabel(label).check();
      await type.getByRole('button', { name: 'Save ticket type' }).click();
      for (const label of settings) await expect.poll(() => type.getByLabel(label).isChecked()).toBe(true);
    };
    const hidden = 'Hidden: sold only with an access code';
    const ownQr = 'One ticket per attendee';
    if (run.type === 'Fan Club') await editType('Fan Club', [hidden, ownQr]);
    else {
      await editType('Fan Club', [hidden]);
      await editType(run.type, [ownQr]);
    }

    // The hall's seats, shared by Stalls and the fan club.
    const quotas = section(page, 'quotas-heading');
    await quotas.getByRole('button', { name: 'Add shared capacity' }).click();
    await quotas.getByLabel('Name', { exact: true }).fill('Hall');
    await quotas.getByLabel('Capacity').fill('110');
    await quotas.getByRole('checkbox', { name: 'Stalls' }).check();
    await quotas.getByRole('checkbox', { name: 'Fan Club' }).check();
    await quotas.getByRole('button', { name: 'Add shared capacity' }).click();
    const hall = quotas.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Hall' }) });
    await hall.waitFor(SLOW);
    await expect(hall.getByRole('cell').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['110', '0']),
    );
    await shot(quotas, 'editor-shared-capacity');

    // Attendee names, required, for the type this buyer books.
    const questions = section(page, 'questions-heading');
    const typeGroup = questions.getByRole('group', { name: new RegExp(`^${run.type} · `) });
    await typeGroup.getByRole('combobox').selectOption('required');
    await expect.poll(() => typeGroup.getByRole('combobox').inputValue()).toBe('required');
    await shot(typeGroup, 'editor-attendee-names');

    // A T-shirt in two sizes, at 5 % GST (HSN 6109), with either type of the hall.
    const addOns = section(page, 'add-ons-heading');
    await addOns.getByRole('button', { name: 'Add an add-on' }).click();
    await addOns.getByLabel('Name', { exact: true }).fill('T-shirt');
    await addOns.getByLabel('Price (₹)').fill('400');
    await addOns.getByLabel('GST rate').selectOption('5');
    await addOns.getByLabel('HSN or SAC code').fill('6109');
    await addOns.getByLabel('At most per order').fill('2');
    await addOns.getByLabel('Variant 1 name').fill('M');
    await addOns.getByLabel('Variant 1 stock').fill('30');
    await addOns.getByRole('button', { name: 'Add a variant' }).click();
    await addOns.getByLabel('Variant 2 name').fill('L');
    await addOns.getByLabel('Variant 2 stock').fill('30');
    await addOns.getByRole('checkbox', { name: 'Stalls' }).check();
    await addOns.getByRole('checkbox', { name: 'Fan Club' }).check();
    await addOns.getByRole('button', { name: 'Add the add-on' }).click();
    await addOns.getByRole('rowheader', { name: 'T-shirt' }).first().waitFor(SLOW);
    await shot(addOns, 'editor-add-ons');
    await expectNoSeriousA11yViolations(page);

    // The codes, on the Sales page: a discount code for everyone, and the fan club's access code.
    await page.getByRole('navigation', { name: 'This event' }).getByRole('link', { name: 'Sales' }).click();
    const codes = section(page, 'discount-codes-heading');
    await codes.getByRole('button', { name: 'Add a code' }).click(SLOW);
    await codes.getByLabel('Code', { exact: true }).fill('SAVE10');
    await codes.getByLabel('Percent off').fill('10');
    await codes.getByLabel('Uses in all (optional)').fill('100');
    await codes.getByLabel('Uses per buyer (optional)').fill('1');
    await codes.getByRole('button', { name: 'Add code' }).click();
    await codes.getByRole('rowheader', { name: 'SAVE10' }).waitFor(SLOW);
    await codes.getByRole('button', { name: 'Add a code' }).click();
    await codes.getByLabel('Code', { exact: true }).fill('FANCLUB');
    await codes.getByLabel('Percent off').fill('20');
    await codes.getByRole('checkbox', { name: /^Fan Club/ }).check();
    await codes.getByLabel('Uses per buyer (optional)').fill('1');
    await codes.getByRole('button', { name: 'Add code' }).click();
    const fanClubCode = codes
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'FANCLUB' }) });
    await fanClubCode.getByText('Unlocks: Fan Club').waitFor(SLOW);
    state.codesMade = true;
    await shot(codes, 'sales-discount-codes');
    await expectNoSeriousA11yViolations(page);
  });

  it('the buyer books two named tickets with the code and a T-shirt, and the invoice shows both', async () => {
    const { ev } = state;
    expect(state.codesMade, 'the organiser has made the codes').toBe(true);
    const { context } = await newContext(world.browser, baseURL, run.viewport);
    await signInNewBuyer(world.database.db, context, baseURL);
    const page = await context.newPage();
    try {
      if (run.type === 'Fan Club') {
        // The fan club's link, typed in any case: the hidden type shows, unlocked.
        await page.goto(`/events/${ev.eventId}?code=fanclub`);
      } else {
        await page.goto(`/events/${ev.eventId}`);
      }
      await page.getByRole('heading', { name: ev.eventName }).first().waitFor(SLOW);
      await page.getByRole('link', { name: 'Book Now' }).filter({ visible: true }).click();
      await page.getByRole('button', { name: `Select Ticket: ${run.type}` }).click(SLOW);
      await page.getByRole('button', { name: `Add one ${run.type}` }).click();
      await page.getByText('2 Ticket(s)').waitFor();
      await page.getByRole('link', { name: 'Checkout' }).click();
      await page.getByRole('heading', { name: 'Payment Summary' }).waitFor(SLOW);

      if (run.type === 'Stalls') {
        await page.getByRole('textbox', { name: 'Discount code' }).fill('save10');
        await page.getByRole('button', { name: 'Apply code' }).click();
      }
      // 20 % of ₹900 or 10 % of ₹800, on each of two tickets.
      const discountTotal = (Number(run.discountPerTicket) * 2).toFixed(2);
      await page
        .getByTestId('discount-applied')
        .getByText(`${run.code} applied: −₹${discountTotal}`)
        .waitFor(SLOW);

      for (const [i, name] of buyerNames.entries()) {
        await page
          .getByRole('group', { name: `${run.type}, ticket ${i + 1}` })
          .getByLabel('Attendee name')
          .fill(name);
      }
      await page.getByLabel('How many: T-shirt, M').selectOption('1');
      const phone = page.getByRole('textbox', { name: 'Phone' });
      if ((await phone.count()) === 0) await page.getByRole('button', { name: 'Edit Phone' }).click();
      await phone.fill('9876543210');
      await page.getByLabel('State').selectOption('Karnataka');
      await shot(page, 'checkout', true);
      await expectNoSeriousA11yViolations(page);

      await page.getByRole('button', { name: 'Proceed' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: /^Pay ₹/ }).click(SLOW);
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor(SLOW);
      state.bookingId = (await page.getByTestId('booking-id').textContent())!;
      expect(state.bookingId).toMatch(/^JB[2-9A-Z]{10}$/);

      // My Bookings lists the T-shirt; its GST invoice shows the discount and the T-shirt's own line.
      await page.goto('/my-bookings');
      const card = page.getByRole('article', { name: ev.eventName });
      await card.getByText('Add-ons: 1 × T-shirt (M)').waitFor(SLOW);
      await shot(page, 'my-bookings', true);
      const download = page.waitForEvent('download');
      await card.getByRole('link', { name: /^Download GST invoice INV\// }).click();
      const text = pdfPageText(readFileSync((await (await download).path())!));
      expect(text).toContain('Tax invoice');
      expect(text).toContain(
        `Less discount (code ${run.code}): 2 x Rs. ${run.discountPerTicket} = Rs. ${discountTotal}`,
      );
      // ₹400 with GST included at 5 %, not the admission's 18 %, supplied at the venue in Mumbai.
      expect(text).toMatch(/T-shirt \(M\) \(HSN 6109\): 1 x Rs\. 400\.00/);
      expect(text).toContain(
        'Taxable value Rs. 380.96; CGST 2.5% Rs. 9.52; SGST 2.5% Rs. 9.52; amount Rs. 400.00',
      );
      expect(text).toMatch(/\(SAC 999622\): 2 x Rs\. [\d,]+\.00\n\s+Less discount/);
      expectInventoryInvariant(world.database.db, ev.ticketTypeIds);

      // The e-ticket: a QR of their own for each attendee, named, and no booking QR (nobody is left on it).
      // The gate is shown these very pictures.
      await page.goto(`/ticket/${state.bookingId}`);
      const own = page.getByTestId('attendee-ticket');
      await expect.poll(() => own.getByTestId('ticket-qr').count(), SLOW).toBe(2);
      for (const [i, name] of buyerNames.entries())
        await own
          .nth(i)
          .getByText(`Ticket ${i + 1} of 2 · ${name}`, { exact: true })
          .waitFor();
      await expect(page.getByTestId('ticket-qr').count()).resolves.toBe(2);
      state.attendeeQrs = await cameraFramesOf(own.getByTestId('ticket-qr'));
      await shot(page, 'ticket-attendees', true);
    } finally {
      await context.close();
    }
  });

  // The organiser works the gate, one phone per attendee: Chromium's fake camera shows one picture per
  // browser, so each attendee's QR (the ticket page's own image) is held up to a gate browser of its own.
  it('at the gate each attendee’s own QR admits them by name, the T-shirt is handed over, a second scan is refused, and the look-up lists each person', async () => {
    expect(state.attendeeQrs, 'the buyer has their attendees’ QRs').toHaveLength(2);
    const result = (page: Page) => page.getByTestId('gate-result');
    const admitted = (page: Page) => result(page).and(page.locator('[data-outcome="admit"]'));
    for (const [i, name] of buyerNames.entries()) {
      const browser = await cameraBrowser(cameraVideo(state.attendeeQrs[i]!));
      try {
        const context = await browser.newContext({
          baseURL,
          viewport: run.viewport,
          locale: 'en-IN',
          permissions: ['camera'],
        });
        await context.addCookies([{ name: SESSION_COOKIE, value: state.organiserToken, url: baseURL }]);
        const page = await context.newPage();
        await page.goto('/check-in');
        await page.waitForURL('**/gate');
        await page.getByLabel('Event', { exact: true }).selectOption({ value: state.ev.eventId });
        await page.getByLabel('Slot', { exact: true }).selectOption({ value: state.ev.slotId });
        await page.getByLabel('Gate name', { exact: true }).fill('Main gate');
        await page.getByRole('button', { name: 'Start scanning' }).click();
        // One person on each attendee's ticket: admitted at once (no "how many enter"), by their own name.
        await admitted(page).getByText('ADMIT 1').waitFor({ timeout: 30_000 });
        await admitted(page).getByText(`${name} · ${run.type}`).waitFor();
        await admitted(page).getByText('1 of 1 in').waitFor();
        // The booking's T-shirt: handed over with the first attendee, shown as given with the second.
        const handOver = admitted(page).getByRole('region', { name: 'Hand over' });
        if (i === 0) {
          await handOver.getByRole('button', { name: 'Given: 1 × T-shirt (M)' }).click(SLOW);
          // Recorded: the button gives way to a plain "Given".
          await handOver
            .getByRole('button', { name: 'Given: 1 × T-shirt (M)' })
            .waitFor({ state: 'detached' });
          await shot(page, 'gate-hand-over');
          await expectNoSeriousA11yViolations(page);
        }
        await handOver.getByText('1 × T-shirt (M)').waitFor(SLOW);
        await handOver.getByText('Given', { exact: true }).waitFor();
        await expect(handOver.getByRole('button').count()).resolves.toBe(0);
        if (i === 0) {
          // The same QR again (shown again after the result was dismissed): this attendee is in already.
          await result(page).getByRole('button', { name: 'Dismiss' }).click();
          const refused = result(page).and(page.locator('[data-outcome="refuse"]'));
          await refused.getByText(/^Already used at Main gate, \d\d:\d\d$/).waitFor({ timeout: 15_000 });
          await refused.getByText(`${name} · ${run.type}`).waitFor();
          await shot(page, 'gate-already-used');
        } else {
          // A volunteer looks up the person by their own name: the booking lists each person's ticket,
          // both in now, so neither can be admitted again from the list.
          await result(page).getByRole('button', { name: 'Dismiss' }).click();
          await page.getByRole('button', { name: 'Look up' }).click();
          const lookUp = page.getByRole('dialog', { name: 'Look up a ticket' });
          await lookUp.getByLabel('Booking id, name or mobile').fill(name.split(' ')[0]!);
          const own = lookUp.getByRole('list', { name: 'Each person’s own ticket' });
          for (const [j, attendee] of buyerNames.entries()) {
            const item = own.getByRole('listitem').filter({ hasText: attendee });
            await item.getByText(`Ticket ${j + 1} of 2 · ${attendee} · 1 of 1 in`).waitFor(SLOW);
            await expect(item.getByRole('button').first().isDisabled()).resolves.toBe(true);
          }
          await lookUp.getByText('Each person has their own ticket:').waitFor();
          await shot(page, 'gate-look-up-attendees');
        }
      } finally {
        await browser.close();
      }
    }
  });

  it('the organiser refunds part and cancels one used ticket; the order history and the payout statement agree', async () => {
    const page = organiser;
    const { ev, bookingId } = state;
    expect(bookingId, 'the buyer has booked').not.toBe('');
    await page.getByRole('navigation', { name: 'This event' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('link', { name: bookingId }).click(SLOW);
    await page.getByRole('heading', { name: 'Refund part' }).waitFor(SLOW);
    // The T-shirt is its own line, and with prices including GST there is no "GST on tickets" on top.
    const payment = section(page, 'payment-heading');
    await payment.getByRole('cell', { name: '1 × T-shirt (M)' }).waitFor();
    await payment.getByText(`Discount (${run.code})`).waitFor();
    await expect(payment.getByText('GST on tickets').count()).resolves.toBe(0);
    const answers = section(page, 'answers-heading');
    for (const name of buyerNames) await answers.getByText(name).first().waitFor();

    // One guest left at the interval, a pillar in their way: ₹250 back and their ticket cancelled, as an
    // organiser does it in the form (how many of the booking's tickets of that type to cancel).
    const refund = section(page, 'refund-part-heading');
    await refund.getByLabel('Amount to refund in rupees').fill('250');
    await refund.getByLabel('Reason (the buyer reads it)').fill('A pillar blocked one guest’s view');
    const toCancel = refund.getByRole('spinbutton', { name: `${run.type} tickets to cancel` });
    await expect(toCancel.inputValue()).resolves.toBe('0');
    await refund.getByText(`of 2 × ${run.type}`, { exact: true }).waitFor();
    await toCancel.fill('1');
    await expect(toCancel.inputValue()).resolves.toBe('1');
    await shot(refund, 'refund-part-cancel-ticket');
    await refund.getByRole('button', { name: 'Refund part' }).click();
    await refund.getByText('₹250.00 is being refunded.').waitFor(SLOW);

    // The part refund, its ticket and its credit note for exactly the amount; the booking keeps one ticket.
    // Both attendees were admitted at the gate, so the cancelled ticket was used: its seat stays sold.
    const part = section(page, 'refund-heading')
      .getByRole('listitem')
      .filter({ hasText: 'by the organiser' });
    await part.getByText(`Cancelled: 1 × ${run.type} (seats used at the gate stay off sale)`).waitFor(SLOW);
    await part.getByRole('link', { name: /^Credit note .+ \(₹250\.00\)$/ }).waitFor();
    // The panel does not also say "No refund." above the part refund it lists.
    expect(await section(page, 'refund-heading').getByText('No refund.').count()).toBe(0);
    await expect
      .poll(async () =>
        (await payment.getByRole('row').nth(1).getByRole('cell').allTextContents()).slice(0, 2),
      )
      .toEqual([run.type, '1']);
    await expect(toCancel.inputValue()).resolves.toBe('0');
    await refund.getByText(`of 1 × ${run.type}`, { exact: true }).waitFor();
    // Both tickets were used, so the highest position goes: the second attendee's name stays on record,
    // marked as no longer holding a ticket.
    await expect
      .poll(() => answers.locator('dd').allTextContents(), SLOW)
      .toEqual(expect.arrayContaining([buyerNames[0], `${buyerNames[1]} · ticket cancelled`]));

    const history = section(page, 'history-heading');
    await history.getByText('Part refund of ₹250.00 issued').waitFor(SLOW);
    const entries = (await history.getByRole('listitem').allTextContents()).join('\n');
    const discountTotal = (Number(run.discountPerTicket) * 2).toFixed(2);
    expect(entries).toMatch(
      new RegExp(`Booked and paid ₹[\\d,]+\\.\\d\\d; code ${run.code} applied, ₹${discountTotal} off`),
    );
    // Each attendee checked in on their own ticket; the refused second scan counts nobody.
    expect(entries.match(/Checked in: 1 person at Main gate/g)).toHaveLength(2);
    expect(entries).toContain('Handed over: 1 × T-shirt (M) at Main gate');
    expect(entries).toContain(
      `Part refund of ₹250.00, 1 × ${run.type} cancelled: “A pillar blocked one guest’s view”`,
    );
    expect(entries).toContain('Part refund of ₹250.00 issued');
    // Who did each: the buyer booked; the organiser admitted and handed over at the gate, then refunded.
    expect(entries).toContain('Meera Iyer (buyer)');
    expect(entries).toContain('Nandini Rao (gate staff)');
    expect(entries).toContain('Nandini Rao (organiser team)');
    await shot(page, 'booking-page', true);
    await expectNoSeriousA11yViolations(page);

    // The payout statement adds up, worked by hand from this file's prices (prices include GST):
    //   tickets: 2 × (₹900 − 20 %) on the phone, 2 × (₹800 − 10 %) on the desktop: ₹1,440.00 either way
    //   add-ons: 1 T-shirt (M) at ₹400.00
    //   refunds: the ₹250.00 part refund, all of it from the organiser's revenue (a part refund takes
    //     ticket money first and the fee last, ADR 0043)
    //   payable: ₹1,440.00 + ₹400.00 − ₹250.00 = ₹1,590.00 (nothing collected at the door)
    await page.getByRole('link', { name: ev.eventName }).click();
    await page.getByRole('navigation', { name: 'This event' }).getByRole('link', { name: 'Sales' }).click();
    const payout = section(page, 'payout-heading');
    const figure = (label: string) =>
      payout
        .locator('dt')
        .filter({ hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::dd[1]')
        .textContent();
    // The refund refreshed the Sales page's figures: they include the sale and the refund.
    await payout.locator('dt').filter({ hasText: 'Add-on revenue' }).waitFor(SLOW);
    expect(paiseIn(await figure('Ticket revenue'))).toBe(144_000);
    expect(paiseIn(await figure('Add-on revenue'))).toBe(40_000);
    expect(await figure('Refunds')).toMatch(/^₹250\.00 ?₹250\.00 of it from your revenue$/);
    expect(paiseIn(await figure('Discounts given'))).toBe(Math.round(Number(discountTotal) * 100));
    expect(paiseIn(await figure('Payable to organiser'))).toBe(159_000);
    await shot(payout, 'sales-payout');
    await expectNoSeriousA11yViolations(page);

    // The hall's shared capacity and the type still count the two sold, the cancelled ticket among them: it
    // was used at the gate, so its seat does not go back on sale (loaded afresh: the editor seen before the
    // sale keeps its figures for the app's 30 s of freshness).
    await page.getByRole('navigation', { name: 'This event' }).getByRole('link', { name: 'Edit' }).click();
    await page.reload();
    const hall = section(page, 'quotas-heading')
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'Hall' }) });
    await expect
      .poll(async () => (await hall.getByRole('cell').allTextContents()).slice(1, 5), SLOW)
      .toEqual(['110', '2', '0', '108']);
    const total = run.type === 'Fan Club' ? 20 : 100;
    await page.getByText(new RegExp(`^${run.type} · ₹[\\d,]+ · 2 sold, 0 held of ${total}`)).waitFor(SLOW);
    expectInventoryInvariant(world.database.db, ev.ticketTypeIds);

    // The organiser's month (issue 40): their one event's row, its figures the same by hand, and the total.
    await page.goto(`${baseURL}/organiser`);
    await page.getByRole('link', { name: 'Payouts by month' }).click(SLOW);
    const month = section(page, 'month-heading');
    await month.getByRole('heading', { name: /: ₹1,590\.00 payable to you$/ }).waitFor(SLOW);
    const rowOf = (name: string) =>
      month.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    for (const row of [rowOf(ev.eventName), rowOf('Total, 1 event')]) {
      const cells = await row.getByRole('cell').allTextContents();
      // Orders, ticket revenue, add-on revenue … refunds, from your revenue … payable.
      expect([cells[0], cells[1], cells[2], cells[5], cells[6], cells.at(-1)]).toEqual([
        '1',
        '₹1,440.00',
        '₹400.00',
        '₹250.00',
        '₹250.00',
        '₹1,590.00',
      ]);
    }
    await shot(page, 'monthly-payouts', true);
    await expectNoSeriousA11yViolations(page);
  });
});
