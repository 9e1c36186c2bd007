import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GATE_MESSAGES } from '../../shared/gate-schemas.ts';
import { TRANSFER_MESSAGES } from '../../shared/transfer-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { cancelEventBooking } from '../../src-server/services/bookings/cancel-booking.ts';
import type { GateScanResult } from '../../src-server/services/gate/gate-core.ts';
import type { GateSync } from '../../src-server/services/gate/sync-slot.ts';
import { setGateStaff } from '../../src-server/services/tickets/gate-staff.ts';
import { readTicketToken, signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { TRANSFER_OFFERS_LIMITED } from '../../src-server/services/transfers/start-transfer.ts';
import { type CreatedBooking, createBookingOn } from '../helpers/bookings.ts';
import { buy, type Person, signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { signUpVia } from './auth-helpers.ts';

/**
 * Ticket transfers (issue 16, docs/decisions/0025-ticket-transfers.md): the owner offers a booking by
 * name and e-mail, the addressee accepts with that address, the booking moves with a new token, and the
 * gate refuses the old QR online and, through the list's deltas, offline. Runs on both engines
 * (vitest.config.ts ON_BOTH_ENGINES).
 */
describe('ticket transfers', () => {
  let t: TestApp;
  let sender: Person;
  let staff: Person;
  let booking: CreatedBooking;
  const recipientEmail = 'meera.friend@example.com';

  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    sender = await signedInUser(t, { name: 'Asha Rao' });
    booking = await createBookingOn(t, { userId: sender.userId, userName: 'Asha Rao' });
    staff = await signedInUser(t, { email: 'gate@example.com' });
    await setGateStaff(t.deps.db, staff.email, booking.eventId, true, t.clock.now());
  });
  afterEach(async () => {
    await t.close();
  });

  const call = (kind: 'query' | 'mutation', name: string, input: unknown, cookie?: string) =>
    callProcedure(t, kind, name, input, { cookie });
  const start = (cookie = sender.cookie, overrides: Record<string, unknown> = {}) =>
    call(
      'mutation',
      'transfers.start',
      { bookingId: booking.bookingId, name: 'Meera Iyer', email: recipientEmail, mobile: '', ...overrides },
      cookie,
    );
  /** The mails queued to `to`, oldest first. */
  const mailsTo = (to: string) => {
    const { outbox } = tablesOf(t.deps.db);
    return t.deps.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(asc(outbox.id));
  };
  /** The token in the newest offer mailed to the recipient. */
  const tokenFromMail = async () => {
    const mails = await mailsTo(recipientEmail);
    const match = /\/transfers\/([\w-]+)/.exec(mails.at(-1)?.text ?? '');
    if (!match) throw new Error('no transfer link mailed');
    return match[1]!;
  };
  const row = async () => {
    const { bookings } = tablesOf(t.deps.db);
    const [found] = await t.deps.db.select().from(bookings).where(eq(bookings.id, booking.bookingId));
    return found!;
  };
  const transfers = () => t.deps.db.select().from(tablesOf(t.deps.db).bookingTransfers);
  /** Sets columns of the booking's event (the organiser's switches, a cancelled show). */
  const setEvent = async (values: Partial<ReturnType<typeof tablesOf>['events']['$inferInsert']>) => {
    const { events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set(values).where(eq(events.id, booking.eventId));
  };
  const scan = async (token: string, persons = 1) =>
    (
      await call(
        'mutation',
        'gate.scan',
        {
          eventId: booking.eventId,
          slotId: booking.row.slotId,
          gate: 'North gate',
          deviceId: 'device-1',
          scanId: randomUUID(),
          token,
          persons,
        },
        staff.cookie,
      )
    ).data as GateScanResult;
  const sync = async (ticketCursor: number, feedCursor = 0) =>
    (
      await call(
        'query',
        'gate.sync',
        { eventId: booking.eventId, slotId: booking.row.slotId, ticketCursor, feedCursor },
        staff.cookie,
      )
    ).data as GateSync;

  it('happy path: offer, mail, sign up with that address, accept; new QR admitted, old refused online and in deltas', async () => {
    const oldQr = signTicketToken(t.deps.appSecret, booking.bookingId);
    const before = await sync(0);
    expect(before.tickets).toHaveLength(1);

    const started = await start(sender.cookie, { mobile: '+91 98765 43211' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const status = await call('query', 'transfers.status', { bookingId: booking.bookingId }, sender.cookie);
    expect(status.data).toMatchObject({ state: 'pending', toName: 'Meera Iyer', toEmail: recipientEmail });
    const [mail] = await mailsTo(recipientEmail);
    expect(mail!.subject).toBe(`A ticket for ${booking.row.eventName} was sent to you on Jalsa`);
    expect(mail!.text).toContain('sign in (or sign up) on Jalsa with this email address');

    const token = await tokenFromMail();
    // The link's page, before signing in: the show, the sender's name, the address to use.
    const page = await call('query', 'transfers.byToken', { token });
    expect(page.data).toMatchObject({
      status: 'pending',
      fromName: 'Asha Rao',
      toEmail: recipientEmail,
      eventName: booking.row.eventName,
      viewerIsRecipient: null,
    });
    // Until accepted, the sender's QR still works (not scanned here: it would check them in).
    expect(readTicketToken(t.deps.appSecret, oldQr)).toEqual({ bookingId: booking.bookingId, generation: 0 });

    const recipient = await signUpVia(t, { email: recipientEmail.toUpperCase(), name: 'Meera Iyer' });
    const accepted = await call('mutation', 'transfers.accept', { token }, recipient.cookie);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.data).toEqual({ bookingId: booking.bookingId });
    expect(await row()).toMatchObject({
      userId: recipient.account.id,
      userName: 'Meera Iyer',
      userEmail: recipientEmail,
      userPhone: '9876543211',
      transferCount: 1,
      paidByUserId: sender.userId,
    });
    // Accepting again is the same answer; the sender is told.
    expect((await call('mutation', 'transfers.accept', { token }, recipient.cookie)).data).toEqual({
      bookingId: booking.bookingId,
    });
    expect((await mailsTo(sender.email))[0]?.subject).toBe(
      `Meera Iyer accepted your ticket for ${booking.row.eventName}`,
    );

    // The recipient's ticket carries a new token; the sender's list shows it as transferred.
    const mine = await call('query', 'bookings.byId', { bookingId: booking.bookingId }, recipient.cookie);
    const newQr = (mine.data as { qrToken: string }).qrToken;
    expect(newQr).not.toBe(oldQr);
    expect(readTicketToken(t.deps.appSecret, newQr)).toEqual({ bookingId: booking.bookingId, generation: 1 });
    expect((await call('query', 'bookings.mine', undefined, sender.cookie)).data).toEqual([]);
    expect((await call('query', 'transfers.sent', undefined, sender.cookie)).data).toMatchObject([
      { bookingId: booking.bookingId, toName: 'Meera Iyer', paidBySender: true },
    ]);
    // The GST invoice stays with the payer: the recipient does not get the sender's invoices.
    expect(
      (await call('query', 'invoices.forBooking', { bookingId: booking.bookingId }, recipient.cookie)).status,
    ).toBe(404);
    expect(
      (await call('query', 'invoices.forBooking', { bookingId: booking.bookingId }, sender.cookie)).status,
    ).toBe(200);
    // The recipient cannot cancel for a refund that would go to the payer's card.
    expect(
      (await call('query', 'bookings.cancellationQuote', { bookingId: booking.bookingId }, recipient.cookie))
        .data,
    ).toMatchObject({ cancellable: false, reason: expect.stringContaining('transferred to you') });

    // Offline devices: the next delta resends the ticket with its new holder and token generation.
    const delta = await sync(before.ticketCursor, before.feedCursor);
    expect(delta.tickets).toEqual([[booking.bookingId, 'Meera Iyer', 'Gold Circle', 4, 0, 0, '3211', 1]]);

    // Online: the old QR is refused, the new one admitted.
    const refused = await scan(oldQr);
    expect(refused).toMatchObject({
      outcome: 'refuse',
      reason: 'transferred',
      message: GATE_MESSAGES.transferred,
    });
    expect(await scan(newQr, 2)).toMatchObject({
      outcome: 'admit',
      persons: 2,
      ticket: { holderName: 'Meera Iyer' },
    });
    expect((await row()).numberOfUserCheckedIn).toBe(2);
  });

  it('mails the stranger no text the sender chose, and limits offers per sender and per address', async () => {
    const { users } = tablesOf(t.deps.db);
    await t.deps.db
      .update(users)
      .set({ name: 'Claim your refund at evil.example' })
      .where(eq(users.id, sender.userId));
    expect((await start(sender.cookie, { name: 'You won 5000, call 90000 00000' })).status).toBe(200);
    const [mail] = await mailsTo(recipientEmail);
    for (const text of [mail!.subject, mail!.text, mail!.html]) {
      expect(text).not.toContain('evil.example');
      expect(text).not.toContain('You won');
    }
    expect(mail!.text).toContain(sender.email);

    // Per sender: five offers an hour (cancelling one does not give it back).
    const cancel = () =>
      call('mutation', 'transfers.cancel', { bookingId: booking.bookingId }, sender.cookie);
    for (let i = 1; i < 5; i += 1) {
      expect((await cancel()).status).toBe(200);
      expect((await start(sender.cookie, { email: `friend${i}@example.com` })).status).toBe(200);
    }
    expect((await cancel()).status).toBe(200);
    const sixth = await start(sender.cookie, { email: 'friend5@example.com' });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error?.message).toBe(TRANSFER_OFFERS_LIMITED);

    // Per address: three offers a day to one address, whoever sends them.
    t.clock.advance(61 * 60_000);
    for (let i = 0; i < 2; i += 1) {
      expect((await start(sender.cookie)).status).toBe(200);
      expect((await cancel()).status).toBe(200);
    }
    const fourth = await start(sender.cookie);
    expect(fourth.status).toBe(429);
    expect(fourth.body.error?.message).toBe(TRANSFER_OFFERS_LIMITED);
  });

  it('after a transfer, a cancellation mails the payer the refund and tells the holder the ticket is void', async () => {
    // A real purchase, so the organiser's cancellation can refund it through the gateway.
    const ev = await createTicketedEventOn(t.deps.db, { now: t.clock.now() });
    const bought = await buy(t, ev, 1);
    const payerEmail = bought.buyer.email;
    const offered = await call(
      'mutation',
      'transfers.start',
      { bookingId: bought.bookingId, name: 'Meera Iyer', email: recipientEmail, mobile: '' },
      bought.buyer.cookie,
    );
    expect(offered.status).toBe(200);
    const token = await tokenFromMail();
    const recipient = await signUpVia(t, { email: recipientEmail, name: 'Meera Iyer' });
    expect((await call('mutation', 'transfers.accept', { token }, recipient.cookie)).status).toBe(200);
    await cancelEventBooking(t.deps, ev.eventId, bought.bookingId);

    const payerCancelled = (await mailsTo(payerEmail)).find((m) => m.subject.startsWith('Booking cancelled'));
    expect(payerCancelled?.text).toContain('is on its way to your original payment method');
    const holderCancelled = (await mailsTo(recipientEmail)).find((m) =>
      m.subject.startsWith('Booking cancelled'),
    );
    expect(holderCancelled?.text).toContain('goes back to the payment method of the person who paid for it');
    expect(holderCancelled?.text).not.toContain('₹');
    // The refund went back to the payer's payment: its mail goes to them, never to the holder.
    const refunded = (m: { subject: string }) => m.subject.startsWith('Refund issued');
    expect((await mailsTo(payerEmail)).some(refunded)).toBe(true);
    expect((await mailsTo(recipientEmail)).some(refunded)).toBe(false);
  });

  it('refuses bad input with field messages', async () => {
    const bad = await start(sender.cookie, { name: 'M', email: 'not-an-address', mobile: '12345' });
    expect(bad.status).toBe(400);
    const text = JSON.stringify(bad.body);
    expect(text).toContain('Name must be at least 2 characters');
    expect(text).toContain('Please enter a valid email address');
    expect(text).toContain('Please enter a valid 10-digit mobile number');
    const own = await start(sender.cookie, { email: sender.email });
    expect(own.status).toBe(409);
    expect(own.body.error?.message).toBe(TRANSFER_MESSAGES.ownEmail);
    const badLink = await call('query', 'transfers.byToken', { token: 'x'.repeat(40) });
    expect(badLink.status).toBe(404);
    expect(badLink.body.error?.message).toBe(TRANSFER_MESSAGES.linkInvalid);
    expect(await transfers()).toEqual([]);
  });

  it('who may not: another buyer cannot transfer, cancel or accept; the wrong address gets a clear refusal', async () => {
    const other = await signedInUser(t);
    expect((await start(other.cookie)).status).toBe(404);
    const signedOut = await call('mutation', 'transfers.start', {
      bookingId: booking.bookingId,
      name: 'Meera Iyer',
      email: recipientEmail,
      mobile: '',
    });
    expect(signedOut.status).toBe(401);
    expect(await transfers()).toEqual([]);

    expect((await start()).status).toBe(200);
    const token = await tokenFromMail();
    expect(
      (await call('mutation', 'transfers.cancel', { bookingId: booking.bookingId }, other.cookie)).status,
    ).toBe(404);
    const wrong = await call('mutation', 'transfers.accept', { token }, other.cookie);
    expect(wrong.status).toBe(403);
    expect(wrong.body.error?.message).toBe(TRANSFER_MESSAGES.otherEmail(recipientEmail));
    // The sender cannot accept their own offer either; signed out is 401.
    expect((await call('mutation', 'transfers.accept', { token }, sender.cookie)).status).toBe(403);
    expect((await call('mutation', 'transfers.accept', { token })).status).toBe(401);
    expect(await row()).toMatchObject({ userId: sender.userId, transferCount: 0 });
    // The page tells a signed-in stranger they are not the addressee.
    expect((await call('query', 'transfers.byToken', { token }, other.cookie)).data).toMatchObject({
      viewerIsRecipient: false,
      bookingId: null,
    });
  });

  it('the sender cancels a pending transfer: the link stops working and they can send it again', async () => {
    expect((await start()).status).toBe(200);
    const token = await tokenFromMail();
    expect((await start()).body.error?.message).toBe(TRANSFER_MESSAGES.pending);
    const cancelled = await call(
      'mutation',
      'transfers.cancel',
      { bookingId: booking.bookingId },
      sender.cookie,
    );
    expect(cancelled.status).toBe(200);
    const recipient = await signedInUser(t, { email: recipientEmail });
    const late = await call('mutation', 'transfers.accept', { token }, recipient.cookie);
    expect(late.status).toBe(409);
    expect(late.body.error?.message).toBe(TRANSFER_MESSAGES.linkCancelled);
    expect(
      (await call('mutation', 'transfers.cancel', { bookingId: booking.bookingId }, sender.cookie)).body.error
        ?.message,
    ).toBe(TRANSFER_MESSAGES.noPending);
    expect((await start()).status).toBe(200);
    expect((await row()).userId).toBe(sender.userId);
  });

  it('refuses after check-in, also when the check-in came between offer and acceptance', async () => {
    expect((await start()).status).toBe(200);
    const token = await tokenFromMail();
    expect((await scan(signTicketToken(t.deps.appSecret, booking.bookingId), 1)).outcome).toBe('admit');
    const recipient = await signedInUser(t, { email: recipientEmail });
    const accept = await call('mutation', 'transfers.accept', { token }, recipient.cookie);
    expect(accept.status).toBe(409);
    expect(accept.body.error?.message).toBe(TRANSFER_MESSAGES.checkedIn);
    expect((await row()).userId).toBe(sender.userId);
    await call('mutation', 'transfers.cancel', { bookingId: booking.bookingId }, sender.cookie);
    expect((await start()).body.error?.message).toBe(TRANSFER_MESSAGES.checkedIn);
  });

  it('refuses a ticket whose admission the gate undid, also when the undo came between offer and acceptance (issue 35)', async () => {
    expect((await start()).status).toBe(200);
    const token = await tokenFromMail();
    const admitted = await scan(signTicketToken(t.deps.appSecret, booking.bookingId), 1);
    expect(admitted.outcome).toBe('admit');
    const undo = await call(
      'mutation',
      'gate.undo',
      {
        eventId: booking.eventId,
        slotId: booking.row.slotId,
        gate: 'North gate',
        deviceId: 'device-1',
        undoId: randomUUID(),
        scanId: admitted.scanId,
        reason: 'Wrong ticket scanned',
      },
      staff.cookie,
    );
    expect(undo.status).toBe(200);
    expect((await row()).numberOfUserCheckedIn).toBe(0);
    const recipient = await signedInUser(t, { email: recipientEmail });
    const accept = await call('mutation', 'transfers.accept', { token }, recipient.cookie);
    expect(accept.status).toBe(409);
    expect(accept.body.error?.message).toBe(TRANSFER_MESSAGES.checkedIn);
    expect((await row()).userId).toBe(sender.userId);
    await call('mutation', 'transfers.cancel', { bookingId: booking.bookingId }, sender.cookie);
    expect((await start()).body.error?.message).toBe(TRANSFER_MESSAGES.checkedIn);
  });

  it('cancelling the booking voids a pending offer: its link says the transfer was cancelled', async () => {
    // A real purchase, so the buyer's own cancellation can queue its refund.
    const ev = await createTicketedEventOn(t.deps.db, { now: t.clock.now() });
    const bought = await buy(t, ev, 1);
    const offered = await call(
      'mutation',
      'transfers.start',
      { bookingId: bought.bookingId, name: 'Meera Iyer', email: recipientEmail, mobile: '' },
      bought.buyer.cookie,
    );
    expect(offered.status).toBe(200);
    const token = await tokenFromMail();
    const cancelled = await call(
      'mutation',
      'bookings.cancel',
      { bookingId: bought.bookingId },
      bought.buyer.cookie,
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await call('query', 'transfers.byToken', { token })).data).toMatchObject({ status: 'cancelled' });
    const recipient = await signedInUser(t, { email: recipientEmail });
    expect(
      (await call('mutation', 'transfers.accept', { token }, recipient.cookie)).body.error?.message,
    ).toBe(TRANSFER_MESSAGES.linkCancelled);
    await simulatorWebhooksDelivered(t.deps);
  });

  it('refuses when the organiser switched transfers off, and for a cancelled event or booking', async () => {
    await setEvent({ transfersAllowed: false });
    expect((await start()).body.error?.message).toBe(TRANSFER_MESSAGES.switchedOff);
    expect(
      (await call('query', 'transfers.status', { bookingId: booking.bookingId }, sender.cookie)).data,
    ).toEqual({ state: 'unavailable', reason: TRANSFER_MESSAGES.switchedOff });
    await setEvent({ transfersAllowed: true });
    const { bookings } = tablesOf(t.deps.db);
    await t.deps.db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, booking.bookingId));
    expect((await start()).body.error?.message).toBe(TRANSFER_MESSAGES.cancelled);
    await setEvent({ status: 'cancelled' });
    expect((await start()).body.error?.message).toBe(TRANSFER_MESSAGES.showCancelled);
    expect(await transfers()).toEqual([]);
  });

  it('refuses once the organiser’s limit of transfers per booking is reached (default 1)', async () => {
    expect((await start()).status).toBe(200);
    const recipient = await signedInUser(t, { email: recipientEmail });
    expect(
      (await call('mutation', 'transfers.accept', { token: await tokenFromMail() }, recipient.cookie)).status,
    ).toBe(200);
    const onward = await start(recipient.cookie, { email: 'third@example.com' });
    expect(onward.status).toBe(409);
    expect(onward.body.error?.message).toBe(TRANSFER_MESSAGES.limitReached);
    // Raised to 2 by the organiser, the recipient may pass it on; the first QR stays refused.
    await setEvent({ maxTransfersPerBooking: 2 });
    expect((await start(recipient.cookie, { email: 'third@example.com' })).status).toBe(200);
  });
});
