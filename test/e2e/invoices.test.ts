import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '../../src-server/db/schema/catalog.ts';
import { organiserProfiles } from '../../src-server/db/schema/invoices.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import { expectNoSeriousA11yViolations, newContext, PHONE, saveScreenshot } from '../helpers/browser.ts';
import { selectTwoGold, signInNewBuyer } from '../helpers/buyer.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { insertRegisteredOrganiser } from '../helpers/registered-organiser.ts';

describe('GST invoice in Chromium', () => {
  const world = useE2eWorld();
  const baseURL = e2eServer().baseURL;

  it('buy with a GSTIN → download the invoice from My Bookings → CGST and SGST in the PDF', async () => {
    // An organiser in Maharashtra with a tax profile, selling a show in Mumbai (intra-state).
    const organiserId = insertRegisteredOrganiser(world.database.db, 'Tala Collective');
    const ev = createTicketedEvent(world.database.db, {
      now: new Date(),
      city: 'Mumbai',
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 10 }],
    });
    world.database.db.update(events).set({ ownerId: organiserId }).where(eq(events.id, ev.eventId)).run();

    const { context } = await newContext(world.browser, baseURL, PHONE);
    await signInNewBuyer(world.database.db, context, baseURL);
    const page = await context.newPage();
    await selectTwoGold(page, ev);
    await page.getByRole('link', { name: 'Checkout' }).click();
    await page.getByRole('heading', { name: 'Payment Summary' }).waitFor();
    await page.getByRole('button', { name: 'Edit Phone' }).click();
    await page.getByRole('textbox', { name: 'Phone' }).fill('9876543210');
    await page.getByLabel('State').selectOption('Maharashtra');
    await page.getByText('Need a GST invoice for your business? (optional)').click();
    // A GSTIN with a wrong check character is refused beside the field.
    await page.getByLabel('GSTIN').fill('29AAGCB7383J1Z5');
    await page.getByLabel('Legal name (as registered for GST)').fill('Iyer Consulting Pvt Ltd');
    // A registered recipient's address goes on the invoice (Rule 46; issue 36).
    await page
      .getByLabel('Billing address (printed on your GST invoice)')
      .fill('4 Residency Road, Bengaluru 560025');
    await page.getByRole('button', { name: 'Proceed' }).click();
    await page.getByText('Please enter a valid 15-character GSTIN (e.g. 27AAPFU0939F1ZV)').first().waitFor();
    await page.getByLabel('GSTIN').fill('29aagcb7383j1z4');
    await page.getByRole('button', { name: 'Proceed' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: /^Pay ₹/ }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await page.waitForURL(/\/ticket\/JB[2-9A-Z]{10}$/, { timeout: 10_000 });

    await page.goto('/my-bookings');
    const card = page.getByRole('article', { name: ev.eventName });
    await card.waitFor();
    const download = page.waitForEvent('download');
    await card.getByRole('link', { name: /^Download GST invoice INV\// }).click();
    const pdf = readFileSync((await (await download).path())!);
    const text = pdfPageText(pdf);
    // ₹1,999.98 paid, tax included: 1999.98 / 1.18 = 1694.90 taxable, 305.08 tax = 152.54 + 152.54.
    expect(text).toContain('Tax invoice');
    expect(text).toContain('GSTIN: 27AAPFU0939F1ZV');
    expect(text).toContain('GSTIN: 29AAGCB7383J1Z4');
    expect(text).toContain('Iyer Consulting Pvt Ltd');
    expect(text).toContain('Taxable value: Rs. 1,694.90');
    expect(text).toContain('CGST: Rs. 152.54');
    expect(text).toContain('SGST: Rs. 152.54');
    expect(text).not.toContain('IGST:');
    await saveScreenshot(page, 'gst-my-bookings-phone.png', { fullPage: true });
    await context.close();
  });

  it('a buyer who skipped the GSTIN adds it later from My Bookings and gets a re-issued invoice', async () => {
    const organiserId = insertRegisteredOrganiser(world.database.db, 'Deccan Live', {
      legalName: 'Deccan Live Pvt Ltd',
      address: 'Indiranagar, Bengaluru 560038',
      state: 'Karnataka',
      gstin: '29AAGCB7383J1Z4',
    });
    // Held in Mumbai by a Karnataka organiser: inter-state, IGST.
    const ev = createTicketedEvent(world.database.db, {
      now: new Date(),
      city: 'Mumbai',
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 10 }],
    });
    world.database.db.update(events).set({ ownerId: organiserId }).where(eq(events.id, ev.eventId)).run();

    const { context } = await newContext(world.browser, baseURL);
    await signInNewBuyer(world.database.db, context, baseURL);
    const page = await context.newPage();
    await selectTwoGold(page, ev);
    await page.getByRole('link', { name: 'Checkout' }).click();
    await page.getByRole('heading', { name: 'Payment Summary' }).waitFor();
    await page.getByRole('button', { name: 'Edit Phone' }).click();
    await page.getByRole('textbox', { name: 'Phone' }).fill('9876543210');
    await page.getByLabel('State').selectOption('Maharashtra');
    await page.getByRole('button', { name: 'Proceed' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Pay ₹/ })
      .click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await page.waitForURL(/\/ticket\/JB[2-9A-Z]{10}$/, { timeout: 10_000 });

    await page.goto('/my-bookings');
    const card = page.getByRole('article', { name: ev.eventName });
    await card.getByRole('link', { name: /^Download GST invoice INV\/\d\d-\d\d\/000001$/ }).waitFor();
    await card.getByRole('button', { name: 'Add GSTIN' }).click();
    await card.getByLabel('GSTIN').fill('27AAPFU0939F1ZV');
    await card.getByLabel('Legal name (as registered for GST)').fill('Meera Iyer Studio LLP');
    await card.getByLabel('Billing address').fill('12 Hill Road, Bandra, Mumbai 400050');
    await card.getByRole('button', { name: 'Re-issue invoice' }).click();
    const reissued = card.getByRole('link', { name: /^Download GST invoice INV\/\d\d-\d\d\/000002$/ });
    await reissued.waitFor();
    await saveScreenshot(page, 'gst-my-bookings-desktop.png', { fullPage: true });
    const download = page.waitForEvent('download');
    await reissued.click();
    const text = pdfPageText(readFileSync((await (await download).path())!));
    expect(text).toContain('GSTIN: 27AAPFU0939F1ZV');
    expect(text).toContain('Meera Iyer Studio LLP');
    expect(text).toContain('Place of supply: Maharashtra (27)');
    expect(text).toContain('IGST: Rs. 305.08');
    expect(text).not.toContain('CGST:');
    await context.close();
  });

  it('prices plus GST (issue 40): the organiser switches an event in its GST section; a phone buyer sees "+ GST" and the all-in total', async () => {
    // A registered organiser in Maharashtra, selling a ₹750 show in Mumbai.
    const { db } = world.database;
    const now = new Date();
    const organiserId = insertRegisteredOrganiser(db, 'Tala Collective', undefined, now);
    writeAccountRole(db, organiserId, 'organiser', null, now);
    const ev = createTicketedEvent(db, {
      now,
      city: 'Mumbai',
      types: [{ name: 'Gold', pricePaise: 75_000, totalTickets: 10 }],
    });
    db.update(events).set({ ownerId: organiserId }).where(eq(events.id, ev.eventId)).run();

    const organiser = await newContext(world.browser, baseURL, PHONE);
    await organiser.context.addCookies([
      { name: SESSION_COOKIE, value: createSession(db, organiserId, now).token, url: baseURL },
    ]);
    const editor = await organiser.context.newPage();
    await editor.goto(`/organiser/events/${ev.eventId}/edit`);
    const gst = editor.getByRole('region', { name: 'GST' });
    await gst.getByLabel('Ticket prices').selectOption('Prices plus GST (added at checkout)');
    await gst.getByRole('button', { name: 'Save GST settings' }).click();
    await gst.getByText('Saved.').waitFor();
    await organiser.context.close();

    const { context } = await newContext(world.browser, baseURL, PHONE);
    await signInNewBuyer(db, context, baseURL);
    const page = await context.newPage();
    await page.goto(`/events/${ev.eventId}`);
    // The phone's bottom bar: the price says GST is added, from the first screen.
    await page.locator('p:visible', { hasText: '₹750 + GST Onwards' }).waitFor();
    await page.getByRole('link', { name: 'Book Now' }).filter({ visible: true }).click();
    await page.getByRole('button', { name: 'Select Ticket: Gold' }).click();
    await expect(page.getByText('+ 18% GST').textContent()).resolves.toBe('+ 18% GST');
    // By hand: 750.00 + GST 18 % 135.00 = 885.00 on the running total.
    await expect(page.getByTestId('selection-total').textContent()).resolves.toBe('₹885');
    await page.getByRole('link', { name: 'Checkout' }).click();
    await page.getByRole('heading', { name: 'Payment Summary' }).waitFor();
    await page.getByRole('button', { name: 'Edit Phone' }).click();
    await page.getByRole('textbox', { name: 'Phone' }).fill('9876543210');
    await page.getByLabel('State').selectOption('Maharashtra');
    // Fee 5 % of 750.00 = 37.50, its IGST 18 % 6.75 (the demo platform is in Karnataka, the buyer in
    // Maharashtra): 750.00 + 135.00 + 37.50 + 6.75 = 929.25, before payment and in the phone's bar.
    await expect(page.getByTestId('ticket-gst').textContent()).resolves.toBe('₹135.00');
    await expect(page.getByTestId('grand-total').textContent()).resolves.toBe('₹929.25');
    await expect(page.getByTestId('bar-grand-total').textContent()).resolves.toBe('₹929.25');
    // Proceed asks the server, which quotes the same amount to pay.
    await page.getByRole('button', { name: 'Proceed' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Pay ₹929.25' }).waitFor();
    await context.close();
  });

  it('an organiser fills in the tax profile: a GSTIN of another state is refused, a right one saved', async () => {
    const { context } = await newContext(world.browser, baseURL);
    const organiser = await signInNewBuyer(world.database.db, context, baseURL);
    writeAccountRole(world.database.db, organiser.userId, 'organiser', null, new Date());
    const page = await context.newPage();
    await page.goto('/organiser');
    await page.getByRole('link', { name: 'Organiser profile & invoices' }).click();
    await page.getByRole('heading', { name: 'Organiser profile' }).waitFor();
    await page.getByLabel('Legal name').fill('Meera Iyer Productions LLP');
    await page.getByLabel('Address').fill('14 Boat Club Road, Pune 411001');
    await page.getByLabel('State').selectOption('Maharashtra');
    await page.getByLabel('GSTIN (leave empty if not registered)').fill('29AAGCB7383J1Z4');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('The GSTIN’s first two digits must be the state’s GST code').waitFor();
    await page.getByLabel('GSTIN (leave empty if not registered)').fill('27aapfu0939f1zv');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Saved.').waitFor();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, 'gst-organiser-profile.png', { fullPage: true });
    const saved = world.database.db
      .select()
      .from(organiserProfiles)
      .where(eq(organiserProfiles.userId, organiser.userId))
      .get();
    expect(saved).toMatchObject({ gstin: '27AAPFU0939F1ZV', state: 'Maharashtra', defaultTaxRate: 18 });
    await context.close();
  });
});
