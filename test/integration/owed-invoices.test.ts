import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GST_MESSAGES, invoicingNotice } from '../../shared/gst-schemas.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import { cancelBookingSteps } from '../../src-server/services/bookings/cancel-booking-in.ts';
import { account, buy as buyTickets, ownedEvent, pendingRequest } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Issue 35, item 18: GST invoices must not go missing. What an organiser typed in their request becomes
 * their invoicing profile; a GST-registered organiser cannot publish until the invoice details are
 * complete; completing them issues the invoices owed, numbered on from the series, once.
 */
const REQUEST = {
  organisationName: 'Sur Sangam Events',
  contactPhone: '9876543210',
  city: 'Bangalore',
  whatTheyRun: 'Carnatic concerts twice a month',
  gstin: '27AAPFU0939F1ZV',
};
const ADDRESS = '12 Hill Road, Bandra, Mumbai 400050';

describe('invoicing details from the organiser request to the invoices owed', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  const call = async (kind: 'query' | 'mutation', name: string, input: unknown, cookie: string) => {
    const res = await callProcedure(t, kind, name, input, { cookie });
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    return res.data as Record<string, unknown>;
  };

  /** Someone asks through List your Event and an admin approves: they are an organiser now. */
  async function approvedOrganiser(request: Partial<typeof REQUEST> = {}) {
    const person = await account(t, 'none');
    const admin = await account(t, 'admin');
    await call('mutation', 'organiserRequests.submit', { ...REQUEST, ...request }, person.cookie);
    const [row] = (
      await callProcedure(t, 'query', 'admin.organiserRequests', undefined, { cookie: admin.cookie })
    ).data as { id: string }[];
    await call('mutation', 'admin.approveRequest', { requestId: row!.id }, admin.cookie);
    return person;
  }

  const admissionInvoices = (bookingId: string) => {
    const { invoices } = tablesOf(t.deps.db);
    return t.deps.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.bookingId, bookingId), eq(invoices.kind, 'admission')));
  };
  const invoicesIssuedBy = (issuer: string) => {
    const { invoices } = tablesOf(t.deps.db);
    return t.deps.db.select().from(invoices).where(eq(invoices.issuer, issuer));
  };
  const setDraft = (eventId: string) => {
    const { events } = tablesOf(t.deps.db);
    return t.deps.db.update(events).set({ status: 'draft' }).where(eq(events.id, eventId));
  };

  it('approving a request makes its GSTIN, organisation and state the profile’s defaults, still to complete', async () => {
    const registered = await approvedOrganiser();
    // The GSTIN's state (27: Maharashtra) wins over the request's city (Bengaluru).
    expect(await call('query', 'invoices.profile', undefined, registered.cookie)).toEqual({
      legalName: 'Sur Sangam Events',
      address: '',
      state: 'Maharashtra',
      gstin: '27AAPFU0939F1ZV',
      defaultTaxRate: 18,
      taxInclusive: true,
      complete: false,
    });
    // Without a GSTIN the state is the request's city's.
    const unregistered = await approvedOrganiser({ gstin: '' });
    expect(await call('query', 'invoices.profile', undefined, unregistered.cookie)).toMatchObject({
      legalName: 'Sur Sangam Events',
      state: 'Karnataka',
      gstin: '',
      complete: false,
    });
    // A request declined carries nothing over.
    const declinedPerson = await account(t, 'none');
    const requestId = await pendingRequest(t, declinedPerson.userId);
    await call('mutation', 'admin.declineRequest', { requestId }, (await account(t, 'admin')).cookie);
    expect(
      await callProcedure(t, 'query', 'invoices.profile', undefined, { cookie: declinedPerson.cookie }),
    ).toMatchObject({
      status: 403,
    });
  });

  it('a GST-registered organiser cannot publish before the invoice details are complete; an unregistered one is told why no GST invoice', async () => {
    const registered = await approvedOrganiser();
    const ev = await ownedEvent(t, registered.userId, 'Monsoon Ragas');
    await setDraft(ev.eventId);
    const editable = async (cookie: string, eventId: string) =>
      (await call('query', 'organiser.editableEvent', { eventId }, cookie)) as {
        version: number;
        invoicing: { registered: boolean; complete: boolean };
      };

    const draft = await editable(registered.cookie, ev.eventId);
    expect(draft.invoicing).toEqual({ registered: true, complete: false });
    expect(invoicingNotice(draft.invoicing)).toBe(GST_MESSAGES.invoiceDetailsMissing);
    // The attack: publish anyway. The server refuses, listing the invoice details, and changes nothing.
    expect(
      await call(
        'mutation',
        'organiser.publish',
        { eventId: ev.eventId, version: draft.version },
        registered.cookie,
      ),
    ).toEqual({ published: false, missing: [GST_MESSAGES.invoiceDetailsMissing] });
    const { events } = tablesOf(t.deps.db);
    expect(
      (await t.deps.db.select({ s: events.status }).from(events).where(eq(events.id, ev.eventId)))[0]?.s,
    ).toBe('draft');

    const profile = (await call('query', 'invoices.profile', undefined, registered.cookie)) as object;
    await call('mutation', 'invoices.saveProfile', { ...profile, address: ADDRESS }, registered.cookie);
    const ready = await editable(registered.cookie, ev.eventId);
    expect(ready.invoicing).toEqual({ registered: true, complete: true });
    expect(invoicingNotice(ready.invoicing)).toBeNull();
    expect(
      await call(
        'mutation',
        'organiser.publish',
        { eventId: ev.eventId, version: ready.version },
        registered.cookie,
      ),
    ).toMatchObject({ published: true });

    // Not registered (no GSTIN, no profile at all): publishing is not held up, and the editor says plainly
    // that no GST invoice will be issued, and why.
    const plain = await account(t, 'organiser');
    const other = await ownedEvent(t, plain.userId, 'Open Mic');
    await setDraft(other.eventId);
    const plainDraft = await editable(plain.cookie, other.eventId);
    expect(plainDraft.invoicing).toEqual({ registered: false, complete: false });
    expect(invoicingNotice(plainDraft.invoicing)).toBe(GST_MESSAGES.notRegisteredIncomplete);
    expect(invoicingNotice(plainDraft.invoicing)).toContain('No GST invoice will be issued');
    expect(
      await call(
        'mutation',
        'organiser.publish',
        { eventId: other.eventId, version: plainDraft.version },
        plain.cookie,
      ),
    ).toMatchObject({ published: true });
  });

  it('completing the profile issues the invoices owed, in booking order, numbered on from the series, once', async () => {
    // Approved with a GSTIN but no address yet; the event is already on sale (e.g. published before
    // this rule, or by an admin's hand).
    const organiser = await approvedOrganiser();
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
    });
    const { events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));

    const first = await buyTickets(t, ev, 2, {
      ticketDetails: {
        ...DETAILS,
        buyerGstin: '27AAPFU0939F1ZV',
        buyerLegalName: 'Asha Verma Consulting Pvt Ltd',
        buyerAddress: '4 MG Road, Pune 411001',
      },
    });
    t.clock.advance(60_000);
    const second = await buyTickets(t, ev, 1);
    t.clock.advance(60_000);
    const cancelled = await buyTickets(t, ev, 1);
    await runnerFor(t.deps.db).write((tx) =>
      cancelBookingSteps(tx as WriteTx, t.deps, cancelled.bookingId, 'organiser', t.clock.now(), {}),
    );
    // The profile is not complete: no admission invoice was issued (the platform's fee invoices were).
    for (const b of [first, second, cancelled]) expect(await admissionInvoices(b.bookingId)).toEqual([]);
    const platformInvoices = await invoicesIssuedBy('platform');
    expect(platformInvoices).toHaveLength(3);

    const profile = (await call('query', 'invoices.profile', undefined, organiser.cookie)) as object;
    t.clock.advance(60_000);
    const saved = await call(
      'mutation',
      'invoices.saveProfile',
      { ...profile, address: ADDRESS },
      organiser.cookie,
    );
    expect(saved).toMatchObject({ complete: true, invoicesIssued: 2 });

    // Two tickets at ₹1,180 incl. 18 %: taxable 2 × 1,000 = ₹2,000, CGST + SGST ₹180 each (Mumbai, intra-state).
    const [one] = await admissionInvoices(first.bookingId);
    expect(one).toMatchObject({
      number: 'INV/26-27/000001',
      documentType: 'tax_invoice',
      supplierName: 'Sur Sangam Events',
      supplierAddress: ADDRESS,
      supplierGstin: '27AAPFU0939F1ZV',
      buyerGstin: '27AAPFU0939F1ZV',
      buyerLegalName: 'Asha Verma Consulting Pvt Ltd',
      taxableValuePaise: 200_000,
      cgstPaise: 18_000,
      sgstPaise: 18_000,
      totalPaise: 236_000,
      issuedAt: t.clock.now().toISOString(),
    });
    expect(await admissionInvoices(second.bookingId)).toMatchObject([
      { number: 'INV/26-27/000002', buyerGstin: null, totalPaise: 118_000 },
    ]);
    // A cancelled booking is owed nothing; the platform's fee invoices were not issued a second time.
    expect(await admissionInvoices(cancelled.bookingId)).toEqual([]);
    expect(await invoicesIssuedBy('platform')).toHaveLength(3);

    // Saving again issues nothing more.
    expect(
      await call('mutation', 'invoices.saveProfile', { ...profile, address: ADDRESS }, organiser.cookie),
    ).toMatchObject({ invoicesIssued: 0 });
    expect(await invoicesIssuedBy(organiser.userId)).toHaveLength(2);

    // The next booking is invoiced at confirmation, and its number follows with no gap.
    const later = await buyTickets(t, ev, 1);
    expect(await admissionInvoices(later.bookingId)).toMatchObject([{ number: 'INV/26-27/000003' }]);
  });
});
