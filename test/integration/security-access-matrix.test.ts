import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { simulatePayment } from '../../src-server/integrations/simulator/gateway.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { setGateStaff } from '../../src-server/services/tickets/gate-staff.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { appRouter } from '../../src-server/trpc/root.ts';
import { createBookingOn } from '../helpers/bookings.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { type Person, signedInUser } from '../helpers/engine-fixtures.ts';
import { countOfOn, createTicketedEventOn, expectInventoryInvariantOn } from '../helpers/inventory.ts';
import { createTestApp, createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * The access matrix (docs/security.md). Every tRPC procedure and every plain HTTP route is classified
 * here; the classification is checked against the router and the Hono route table, so a new procedure,
 * a new route or a new id parameter fails this file until someone decides who may use it.
 *
 * For each thing that names someone's private data by id, four callers try it: a signed-out visitor,
 * another signed-in user, gate staff who do not own it, and the owner. Only the owner (or staff where
 * documented) succeeds; everyone else gets exactly the answer an id that does not exist would get, so an
 * id reveals nothing, and nothing changes.
 */

type Access =
  /** Public catalogue or static data: ids name public things (events, slots, ticket types). */
  | { kind: 'public'; ids: string[]; why: string }
  /** Acts only on the caller's own account or session; no id of anyone's data is accepted. */
  | { kind: 'self'; ids: string[]; signedIn: boolean; why: string }
  /** A random secret mailed to the account's owner is the credential (reset and verification links). */
  | { kind: 'capability'; ids: string[]; why: string }
  /**
   * Takes the id of someone's private data: owner only (tested below). `signedOut` is what a visitor
   * who is not signed in gets: 401 from a signed-in-only procedure, or the same 404 as everyone else.
   */
  | { kind: 'owner'; ids: string[]; signedOut: 401 | 404; why: string }
  /**
   * Decided by the installation role or the caller's role on the event (organiser console, admin page):
   * every one is tried by all seven kinds of caller in security-console-access-matrix.test.ts.
   */
  | { kind: 'role'; ids: string[]; signedOut: 401; why: string };

const PROCEDURES: Record<string, Access> = {
  'events.list': { kind: 'public', ids: [], why: 'catalogue' },
  'events.search': { kind: 'public', ids: [], why: 'catalogue' },
  'events.byId': { kind: 'public', ids: ['id'], why: 'an event is public' },
  'events.page': { kind: 'public', ids: [], why: 'catalogue' },
  'events.home': { kind: 'public', ids: [], why: 'catalogue' },
  'events.searchPage': { kind: 'public', ids: [], why: 'catalogue' },
  'events.suggest': { kind: 'public', ids: [], why: 'catalogue' },
  'tickets.options': { kind: 'public', ids: ['eventId'], why: 'live availability of a public event' },
  'contact.send': { kind: 'public', ids: [], why: 'anyone may write to support' },
  'payments.config': { kind: 'public', ids: [], why: 'the gateway name and its public key' },
  'auth.me': { kind: 'self', ids: [], signedIn: false, why: "the caller's own account, or null" },
  'auth.googleEnabled': { kind: 'public', ids: [], why: 'whether Google keys are configured' },
  'auth.signUp': { kind: 'self', ids: [], signedIn: false, why: 'creates the caller’s account' },
  'auth.signIn': { kind: 'self', ids: [], signedIn: false, why: 'rate-limited credential check' },
  'auth.signOut': { kind: 'self', ids: [], signedIn: false, why: "ends the caller's own session" },
  'auth.updateProfile': { kind: 'self', ids: [], signedIn: true, why: 'writes ctx.user only' },
  'auth.changePassword': { kind: 'self', ids: [], signedIn: true, why: 'writes ctx.user only' },
  'auth.resendVerification': { kind: 'self', ids: [], signedIn: true, why: 'mails ctx.user only' },
  'auth.requestPasswordReset': {
    kind: 'self',
    ids: [],
    signedIn: false,
    why: 'same answer for every address; the mail goes to the address only',
  },
  'auth.resetPassword': { kind: 'capability', ids: ['token'], why: 'mailed reset token (hashed, 30 min)' },
  'auth.resetLinkStatus': {
    kind: 'capability',
    ids: ['token'],
    why: 'whether a mailed reset token still works; nothing about its account',
  },
  'auth.verifyEmail': { kind: 'capability', ids: ['token'], why: 'mailed verification token (hashed)' },
  'payments.start': {
    kind: 'self',
    ids: [
      'addOns.variantId',
      'answers.answers.questionId',
      'answers.names.ticketTypeId',
      'eventId',
      'selectedTickets.ticketTypeId',
    ],
    signedIn: true,
    why: 'public catalogue ids (answers only to the selection’s own questions; an add-on’s variant must be the event’s); the hold and order are made for ctx.user and priced on the server',
  },
  'payments.quoteDiscount': {
    kind: 'self',
    ids: ['eventId', 'selectedTickets.ticketTypeId'],
    signedIn: true,
    why: 'public catalogue ids and a code; priced for ctx.user (their per-buyer limit), nothing written',
  },
  'payments.confirm': {
    kind: 'owner',
    ids: ['orderId', 'paymentId'],
    signedOut: 401,
    why: "the buyer's payment order",
  },
  'payments.release': { kind: 'owner', ids: ['holdId'], signedOut: 401, why: "the buyer's seat hold" },
  'bookings.mine': { kind: 'self', ids: [], signedIn: true, why: 'filtered by ctx.user.id' },
  'bookings.byId': {
    kind: 'owner',
    ids: ['bookingId', 'token'],
    signedOut: 404,
    why: 'a booking and its QR token; or, for anyone, the booking its own current signed token names (a box-office buyer without an account, ADR 0042; box-office.test.ts)',
  },
  'bookings.cancellationQuote': {
    kind: 'owner',
    ids: ['bookingId'],
    signedOut: 401,
    why: "what cancelling the buyer's booking would refund",
  },
  'bookings.cancel': {
    kind: 'owner',
    ids: ['bookingId'],
    signedOut: 401,
    why: "cancels the buyer's booking",
  },
  'bookings.cancelSomeTickets': {
    kind: 'owner',
    ids: ['bookingId', 'tickets.ticketTypeId'],
    signedOut: 401,
    why: "cancels some tickets of the buyer's booking; ticket types only among the booking's own lines",
  },
  'transfers.status': {
    kind: 'owner',
    ids: ['bookingId'],
    signedOut: 401,
    why: "whether the buyer's booking can be transferred, and to whom it is offered",
  },
  'transfers.start': {
    kind: 'owner',
    ids: ['bookingId'],
    signedOut: 401,
    why: "offers the buyer's booking to someone by e-mail",
  },
  'transfers.cancel': {
    kind: 'owner',
    ids: ['bookingId'],
    signedOut: 401,
    why: "takes back the buyer's pending transfer",
  },
  'transfers.sent': { kind: 'self', ids: [], signedIn: true, why: 'transfers sent by ctx.user' },
  'transfers.byToken': {
    kind: 'capability',
    ids: ['token'],
    why: 'mailed transfer token (hashed): the show and the names the sender typed; no QR',
  },
  'transfers.accept': {
    kind: 'owner',
    ids: ['token'],
    signedOut: 401,
    why: 'mailed token, and only the account with the address the sender gave (transfers.test.ts)',
  },
  'waitlist.join': {
    kind: 'self',
    ids: ['ticketTypeId'],
    signedIn: true,
    why: 'a public ticket type; the entry is made for ctx.user',
  },
  'waitlist.mine': { kind: 'self', ids: [], signedIn: true, why: 'entries of ctx.user' },
  'waitlist.leave': {
    kind: 'owner',
    ids: ['entryId'],
    signedOut: 401,
    why: "ends the buyer's waiting-list entry (and releases its offer)",
  },
  'waitlist.offer': {
    kind: 'owner',
    ids: ['entryId'],
    signedOut: 401,
    why: "the buyer's waiting-list offer: held tickets and amounts",
  },
  'waitlist.payOffer': {
    kind: 'owner',
    ids: ['entryId'],
    signedOut: 401,
    why: "opens a payment order for the buyer's offer hold",
  },
  'waitingRoom.join': {
    kind: 'self',
    ids: ['eventId'],
    signedIn: true,
    why: 'a public event id; the place is ctx.user’s own (one per account), the token names only it',
  },
  'gate.events': {
    kind: 'self',
    ids: [],
    signedIn: true,
    why: 'events ctx.user owns, is on the team of, or (admin) all',
  },
  'gate.sync': {
    kind: 'role',
    ids: ['eventId', 'slotId'],
    signedOut: 401,
    why: 'checkIn: gate staff and up',
  },
  'gate.scan': {
    kind: 'role',
    ids: ['bookingId', 'deviceId', 'eventId', 'scanId', 'slotId', 'token'],
    signedOut: 401,
    why: 'checkIn; the ticket must be of this event and slot',
  },
  'gate.upload': {
    kind: 'role',
    ids: ['deviceId', 'eventId', 'scans.bookingId', 'scans.scanId', 'scans.token', 'slotId'],
    signedOut: 401,
    why: 'checkIn',
  },
  'gate.undo': {
    kind: 'role',
    ids: ['deviceId', 'eventId', 'scanId', 'slotId', 'undoId'],
    signedOut: 401,
    why: 'checkIn; the admission must be of this event',
  },
  'gate.lookUp': { kind: 'role', ids: ['eventId', 'slotId'], signedOut: 401, why: 'checkIn; this slot only' },
  'gate.dashboard': { kind: 'role', ids: ['eventId'], signedOut: 401, why: 'any role on the event' },
  'gate.addOns': {
    kind: 'role',
    ids: ['bookingId', 'eventId'],
    signedOut: 401,
    why: 'checkIn; the booking must be of this event (ADR 0041)',
  },
  'gate.markAddOnGiven': {
    kind: 'role',
    ids: ['bookingId', 'eventId', 'lineId'],
    signedOut: 401,
    why: 'checkIn; the booking and its add-on line must be of this event',
  },
  'gate.history': {
    kind: 'role',
    ids: ['bookingId', 'eventId'],
    signedOut: 401,
    why: 'checkIn; the booking must be of this event',
  },
  'organiserRequests.submit': { kind: 'self', ids: [], signedIn: true, why: 'a request by ctx.user' },
  'organiserRequests.mine': { kind: 'self', ids: [], signedIn: true, why: "ctx.user's own request" },
  'console.access': { kind: 'self', ids: [], signedIn: false, why: "the caller's own role, or null" },
  'console.myEvents': {
    kind: 'self',
    ids: [],
    signedIn: true,
    why: 'events ctx.user owns or is on the team of',
  },
  'console.event': { kind: 'role', ids: ['eventId'], signedOut: 401, why: 'any role on the event' },
  'console.team': { kind: 'role', ids: ['eventId'], signedOut: 401, why: 'owner, admin, co-organiser' },
  'console.invite': { kind: 'role', ids: ['eventId'], signedOut: 401, why: 'owner or admin' },
  'console.removeMember': {
    kind: 'role',
    ids: ['eventId', 'memberUserId'],
    signedOut: 401,
    why: 'owner or admin; the member must be on that event',
  },
  'console.cancelInvitation': {
    kind: 'role',
    ids: ['eventId', 'invitationId'],
    signedOut: 401,
    why: 'owner or admin; the invitation must be for that event',
  },
  'console.invitation': {
    kind: 'capability',
    ids: ['token'],
    why: 'mailed invitation token (hashed, 7 days)',
  },
  'console.acceptInvitation': {
    kind: 'role',
    ids: ['token'],
    signedOut: 401,
    why: 'mailed token, and only the account with the invited address',
  },
  'console.salesDashboard': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser (viewSales)',
  },
  'console.salesOverTime': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser (viewSales)',
  },
  'console.orders': {
    kind: 'role',
    ids: ['eventId', 'slotId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (viewSales); buyers' details; slotId only filters that event's bookings",
  },
  'console.discountCodes': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser (viewSales): uses and revenue given away',
  },
  'console.createDiscountCode': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); any ticket types chosen must be that event's",
  },
  'console.updateDiscountCode': {
    kind: 'role',
    ids: ['eventId', 'discountCodeId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); the code must be that event's",
  },
  'console.setDiscountCodeActive': {
    kind: 'role',
    ids: ['eventId', 'discountCodeId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); the code must be that event's",
  },
  'console.quotas': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit): the editor's shared capacities with sold, held and left",
  },
  'console.createQuota': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); its slots and ticket types must be that event's",
  },
  'console.updateQuota': {
    kind: 'role',
    ids: ['eventId', 'quotaId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); the quota, its slots and types must be that event's",
  },
  'console.addOns': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit): the editor's add-ons with sold, held and left per variant",
  },
  'console.createAddOn': {
    kind: 'role',
    ids: ['eventId', 'addOn.variants.id'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); its ticket types must be that event's",
  },
  'console.updateAddOn': {
    kind: 'role',
    ids: ['eventId', 'addOnId', 'addOn.variants.id'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); the add-on and its variants must be that event's",
  },
  'console.removeQuota': {
    kind: 'role',
    ids: ['eventId', 'quotaId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); the quota must be that event's",
  },
  'console.ticketQuestions': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser (edit): the questions section of the editor',
  },
  'console.createQuestion': {
    kind: 'role',
    ids: ['eventId', 'ticketTypeId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); the ticket type must be that event's",
  },
  'console.updateQuestion': {
    kind: 'role',
    ids: ['eventId', 'questionId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); the question must be that event's",
  },
  'console.removeQuestion': {
    kind: 'role',
    ids: ['eventId', 'questionId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); the question must be that event's",
  },
  'console.setAttendeeNames': {
    kind: 'role',
    ids: ['eventId', 'ticketTypeId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (edit); the ticket type must be that event's",
  },
  'questions.checkoutForm': {
    kind: 'public',
    ids: ['eventId', 'slotId'],
    why: "a published event's questions, asked of every buyer (no answers)",
  },
  'questions.myAttendees': {
    kind: 'owner',
    ids: ['bookingId'],
    signedOut: 401,
    why: "the attendee names of the caller's own booking",
  },
  'questions.correctAttendeeName': {
    kind: 'owner',
    ids: ['bookingId', 'ticketTypeId'],
    signedOut: 401,
    why: "renames an attendee of the caller's own booking (held by ctx.user)",
  },
  'console.payoutStatement': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner and admin (viewPayouts): not co-organisers, not gate staff',
  },
  'console.monthlyPayoutStatement': {
    kind: 'role',
    ids: [],
    signedOut: 401,
    why: "organisers and admins (organiserProcedure); the rows are the caller's own events by viewPayouts on each, no id accepted (monthly-payout-statement.test.ts)",
  },
  'boxOffice.issueComp': {
    kind: 'role',
    ids: ['eventId', 'slotId', 'lines.ticketTypeId'],
    signedOut: 401,
    why: 'boxOffice (issue 40): owner, admin, co-organiser, box office; the slot and types of this event only',
  },
  'boxOffice.recordDoorSale': {
    kind: 'role',
    ids: ['eventId', 'slotId', 'lines.ticketTypeId'],
    signedOut: 401,
    why: 'boxOffice (issue 40): owner, admin, co-organiser, box office; the slot and types of this event only',
  },
  'boxOffice.lookUpOrders': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'boxOffice (issue 40): this event’s orders only, no money',
  },
  'organiser.createEvent': {
    kind: 'role',
    ids: [],
    signedOut: 401,
    why: 'organisers and admins; ctx.user owns it',
  },
  'organiser.editableEvent': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser',
  },
  'organiser.waitingRoom': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser (edit): the waiting-room settings and queue counts',
  },
  'organiser.updateWaitingRoom': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser (edit)',
  },
  'organiser.preview': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'any role on the event, drafts too',
  },
  'organiser.updateDetails': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned',
  },
  'organiser.addDate': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned',
  },
  'organiser.removeDate': {
    kind: 'role',
    ids: ['eventId', 'dateId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned; the date must be of that event',
  },
  'organiser.addSlot': {
    kind: 'role',
    ids: ['eventId', 'dateId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned; the date must be of that event',
  },
  'organiser.removeSlot': {
    kind: 'role',
    ids: ['eventId', 'slotId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned; the slot must be of that event',
  },
  'organiser.addTicketType': {
    kind: 'role',
    ids: ['eventId', 'slotId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned; the slot must be of that event',
  },
  'organiser.updateTicketType': {
    kind: 'role',
    ids: ['eventId', 'ticketTypeId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned; the type must be of that event',
  },
  'organiser.removeTicketType': {
    kind: 'role',
    ids: ['eventId', 'ticketTypeId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned; the type must be of that event',
  },
  'organiser.copyTicketTypesToAllSlots': {
    kind: 'role',
    ids: ['eventId', 'fromSlotId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned; the slot must be of that event',
  },
  'organiser.publish': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned',
  },
  'organiser.unpublish': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned',
  },
  'organiser.updateSlotTime': {
    kind: 'role',
    ids: ['eventId', 'slotId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned; the slot must be of that event',
  },
  'organiser.cancellationPreview': {
    kind: 'role',
    ids: ['eventId', 'slotId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; the slot must be of that event',
  },
  'organiser.cancelSlot': {
    kind: 'role',
    ids: ['eventId', 'slotId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; versioned; the slot must be of that event',
  },
  'organiser.cancelEvent': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner or admin; versioned',
  },
  'eventBookings.booking': {
    kind: 'role',
    ids: ['eventId', 'bookingId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; the booking must be of that event',
  },
  'eventBookings.cancel': {
    kind: 'role',
    ids: ['eventId', 'bookingId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; the booking must be of that event',
  },
  'eventBookings.refundPart': {
    kind: 'role',
    ids: ['bookingId', 'cancelTickets.ticketTypeId', 'eventId'],
    signedOut: 401,
    why: "owner, admin, co-organiser; the booking must be of that event; ticket types only among the booking's own lines; never more than is left",
  },
  'eventBookings.resendTicket': {
    kind: 'role',
    ids: ['eventId', 'bookingId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser; the booking must be of that event; rate-limited',
  },
  'invoices.profile': {
    kind: 'role',
    ids: [],
    signedOut: 401,
    why: "organisers and admins; ctx.user's own profile",
  },
  'invoices.saveProfile': {
    kind: 'role',
    ids: [],
    signedOut: 401,
    why: "organisers and admins; writes ctx.user's profile",
  },
  'invoices.eInvoicing': {
    kind: 'role',
    ids: [],
    signedOut: 401,
    why: "organisers and admins; ctx.user's own setting and e-invoices",
  },
  'invoices.setEInvoicing': {
    kind: 'role',
    ids: [],
    signedOut: 401,
    why: "organisers and admins; writes ctx.user's profile",
  },
  'invoices.retryEInvoice': {
    kind: 'role',
    ids: ['creditNoteId', 'invoiceId'],
    signedOut: 401,
    why: 'organisers and admins; only their own invoice or credit note (issuer = ctx.user), others NOT_FOUND',
  },
  'invoices.setEventTaxRate': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: 'owner, admin, co-organiser (edit)',
  },
  'invoices.forEvent': {
    kind: 'role',
    ids: ['eventId'],
    signedOut: 401,
    why: "owner, admin, co-organiser (viewSales): the event's invoices",
  },
  'invoices.addBuyerGstin': {
    kind: 'owner',
    ids: ['bookingId'],
    signedOut: 401,
    why: "re-issues the caller's own booking's invoice with their GSTIN",
  },
  'invoices.forBooking': {
    kind: 'owner',
    ids: ['bookingId'],
    signedOut: 401,
    why: "the invoices of the caller's own booking",
  },
  'admin.organiserRequests': { kind: 'role', ids: [], signedOut: 401, why: 'admins only' },
  'admin.approveRequest': { kind: 'role', ids: ['requestId'], signedOut: 401, why: 'admins only' },
  'admin.declineRequest': { kind: 'role', ids: ['requestId'], signedOut: 401, why: 'admins only' },
  'admin.setOrganiser': { kind: 'role', ids: [], signedOut: 401, why: 'admins only' },
  'admin.organisers': { kind: 'role', ids: [], signedOut: 401, why: 'admins only' },
  'admin.events': { kind: 'role', ids: [], signedOut: 401, why: 'admins only' },
  'admin.unpublishEvent': { kind: 'role', ids: ['eventId'], signedOut: 401, why: 'admins only' },
  'admin.releaseEvent': { kind: 'role', ids: ['eventId'], signedOut: 401, why: 'admins only' },
  'admin.totals': { kind: 'role', ids: [], signedOut: 401, why: 'admins only' },
  'admin.eInvoicing': {
    kind: 'role',
    ids: [],
    signedOut: 401,
    why: "admins only; the platform's own e-invoices",
  },
  'admin.retryEInvoice': {
    kind: 'role',
    ids: ['creditNoteId', 'invoiceId'],
    signedOut: 401,
    why: "admins only; only the platform's own invoice or credit note (issuer = platform), others NOT_FOUND",
  },
  'admin.convenienceFeeCap': { kind: 'role', ids: [], signedOut: 401, why: 'admins only' },
  'admin.setConvenienceFeeCap': { kind: 'role', ids: [], signedOut: 401, why: 'admins only' },
};

type RouteAccess = {
  /** 'role': decided like an eventProcedure, tried by all seven callers in the console matrix. */
  kind: 'public' | 'owner' | 'signature' | 'gateway' | 'development' | 'role';
  why: string;
};

/** Plain HTTP routes, as `METHOD path` from Hono's route table (middleware excluded). */
const ROUTES: Record<string, RouteAccess> = {
  'GET /healthz': { kind: 'public', why: 'status only' },
  'GET /readyz': {
    kind: 'public',
    why: 'which part is unwell and why, in a sentence each (readiness.test.ts)',
  },
  'GET /metrics': {
    kind: 'signature',
    why: 'Bearer METRICS_TOKEN, or from this machine with no proxy header (readiness.test.ts)',
  },
  'GET /api/tickets/:file': { kind: 'owner', why: 'PDF and .ics of a booking' },
  'GET /api/invoices/:file': {
    kind: 'owner',
    why: "an invoice PDF: the booking's owner, or the event's viewSales team (invoices.test.ts)",
  },
  'GET /api/invoices/credit-notes/:file': {
    kind: 'owner',
    why: "a credit note PDF: whoever may download its invoice (the payer; the event's viewSales team for admission); invoices.test.ts",
  },
  'GET /api/invoices/month/:file': {
    kind: 'role',
    why: 'organisers and admins, their own invoices only (issuer = ctx.user); invoices.test.ts',
  },
  'GET /api/invoices/gstr1/:file': {
    kind: 'role',
    why: 'organisers and admins, their own documents only (issuer = ctx.user); gstr1-export.test.ts',
  },
  'GET /api/invoices/platform/month/:file': {
    kind: 'role',
    why: "admins only: the platform's fee invoices; platform-invoices-export.test.ts",
  },
  'GET /api/invoices/platform/gstr1/:file': {
    kind: 'role',
    why: "admins only: the platform's fee invoices as GSTR-1; platform-invoices-export.test.ts",
  },
  'GET /api/organiser/events/:eventId/orders.csv': {
    kind: 'role',
    why: "eventProcedure('viewSales')'s answers, tried by seven callers in orders-csv.test.ts",
  },
  'GET /api/organiser/events/:eventId/payout.csv': {
    kind: 'role',
    why: "eventProcedure('viewPayouts')'s answers, tried by seven callers in payout-statement.test.ts",
  },
  'GET /api/organiser/payout.csv': {
    kind: 'role',
    why: "console.monthlyPayoutStatement's answers (organisers and admins, their own events only), tried by every caller in monthly-payout-statement.test.ts and the console matrix",
  },
  'POST /api/webhooks/razorpay': { kind: 'signature', why: 'HMAC of the raw body with the webhook secret' },
  'GET /api/simulator/orders/:orderId': {
    kind: 'gateway',
    why: "the offline gateway's checkout: amount and status only, like Razorpay's hosted checkout",
  },
  'POST /api/simulator/orders/:orderId/pay': {
    kind: 'gateway',
    why: 'paying an order books it for the order’s owner, never for the payer',
  },
  'POST /api/simulator/orders/:orderId/fail': { kind: 'gateway', why: 'a failed attempt changes no hold' },
  'POST /api/create-order': { kind: 'public', why: 'the /temp-checkout test page; off with live Razorpay' },
  'GET /api/auth/google': { kind: 'public', why: 'starts OAuth; 404 unless configured' },
  'GET /api/auth/google/callback': { kind: 'public', why: 'state cookie + PKCE' },
  'POST /api/organiser/events/:eventId/images': {
    kind: 'role',
    why: "image upload: the event's edit permission, a same-origin Origin required",
  },
  'GET /api/waiting-room/:eventId': {
    kind: 'signature',
    why: "a room's public state; a visitor's place and admission pass only with the queue token (HMAC of event, visitor and account) issued at join (waiting-room.test.ts)",
  },
  'GET /uploads/:file': { kind: 'public', why: 'uploaded event pictures, named by their content hash' },
  'GET /dev/mail': { kind: 'development', why: 'development mailbox; absent in production' },
  'GET /dev/mail/:id': { kind: 'development', why: 'development mailbox; absent in production' },
  'GET /dev/mail/:id/html': { kind: 'development', why: 'development mailbox; absent in production' },
};

type ZodNode = { _zod?: { def: Record<string, unknown> & { type: string } } };

/** Every input key that looks like an id or a token, as dotted paths (arrays are walked through). */
function idKeysOf(schema: unknown, prefix = ''): string[] {
  const def = (schema as ZodNode)?._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      return Object.entries(shape).flatMap(([key, child]) => {
        const here = prefix ? `${prefix}.${key}` : key;
        const own = /(^id$|Id$|^token$)/.test(key) ? [here] : [];
        return [...own, ...idKeysOf(child, here)];
      });
    }
    case 'array':
      return idKeysOf(def.element, prefix);
    // Each alternative's ids (e.g. an invoice's or a credit note's), so a union hides none.
    case 'union':
      return (def.options as unknown[]).flatMap((option) => idKeysOf(option, prefix));
    case 'pipe':
      return idKeysOf(def.in, prefix);
    default:
      return 'innerType' in def ? idKeysOf(def.innerType, prefix) : [];
  }
}

const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: string; inputs: unknown[] } }>,
).map(([name, p]) => ({
  name,
  kind: p._def.type as 'query' | 'mutation',
  ids: [...new Set(p._def.inputs.flatMap((schema) => idKeysOf(schema)))].sort(),
}));

describe('the access matrix covers everything', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(() => t.close());

  it('classifies every procedure, and lists exactly the id and token inputs each one takes', () => {
    expect(procedures.length).toBeGreaterThan(20);
    const unclassified = procedures.filter((p) => !PROCEDURES[p.name]).map((p) => p.name);
    expect(unclassified, 'add these procedures to the access matrix').toEqual([]);
    const stale = Object.keys(PROCEDURES).filter((name) => !procedures.some((p) => p.name === name));
    expect(stale, 'these procedures no longer exist').toEqual([]);
    for (const p of procedures) {
      expect(p.ids, `id inputs of ${p.name}: re-check its access`).toEqual(
        [...PROCEDURES[p.name]!.ids].sort(),
      );
    }
  });

  it('classifies every plain HTTP route', () => {
    const routes = [
      ...new Set(t.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`)),
    ];
    expect(routes.length).toBeGreaterThan(5);
    expect(
      routes.filter((r) => !ROUTES[r]),
      'add these routes to the access matrix',
    ).toEqual([]);
    expect(Object.keys(ROUTES).filter((r) => !routes.includes(r))).toEqual([]);
  });

  it('answers UNAUTHORIZED to a signed-out visitor on every signed-in-only procedure, whatever the input', async () => {
    const signedInOnly = procedures.filter((p) => {
      const access = PROCEDURES[p.name]!;
      if (access.kind === 'self') return access.signedIn;
      return (access.kind === 'owner' || access.kind === 'role') && access.signedOut === 401;
    });
    expect(signedInOnly.length).toBeGreaterThan(5);
    for (const p of signedInOnly) {
      for (const input of [undefined, {}, { bookingId: 'x', holdId: 'x', orderId: 'x' }]) {
        const res = await callProcedure(t, p.kind, p.name, input);
        expect(res.status, `${p.name} signed out`).toBe(401);
        expect(res.body.error?.message).toBe('User not authenticated');
      }
    }
  });
});

/** What a caller sees: enough to compare two answers, without ids that differ by construction. */
function answer(res: { status: number; body: { error?: { message: string } }; data?: unknown }) {
  return { status: res.status, message: res.body.error?.message ?? null, data: res.data ?? null };
}

describe('owner-only data, tried by every kind of caller', () => {
  let t: TestApp;
  let owner: Person;
  let stranger: Person;
  let staff: Person;
  /** Everyone who is not the owner; `null` is a signed-out visitor. */
  let others: { who: string; cookie: string | undefined }[];

  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    owner = await signedInUser(t);
    stranger = await signedInUser(t);
    staff = await signedInUser(t);
    // Gate staff of some event (not the owner's bookings' events).
    const elsewhere = await createTicketedEventOn(t.deps.db);
    await setGateStaff(t.deps.db, staff.email, elsewhere.eventId, true, t.clock.now());
    others = [
      { who: 'signed out', cookie: undefined },
      { who: 'another user', cookie: stranger.cookie },
      { who: 'gate staff', cookie: staff.cookie },
    ];
  });
  afterEach(async () => {
    await simulatorWebhooksDelivered(t.deps);
    await expectInventoryInvariantOn(t.deps.db);
    await t.close();
  });

  /**
   * Each non-owner gets a refusal (401 signed out, else 404) identical to the one for an id that does
   * not exist, so the answer says nothing about whether the id is real.
   */
  async function expectOthersRefused(
    call: (id: 'real' | 'unknown', cookie: string | undefined) => Promise<ReturnType<typeof answer>>,
    refusal: (cookie: string | undefined) => number,
  ) {
    for (const { who, cookie } of others) {
      const real = await call('real', cookie);
      const unknown = await call('unknown', cookie);
      expect(real, `${who}: same answer as for an unknown id`).toEqual(unknown);
      expect(real.status, who).toBe(refusal(cookie));
    }
  }

  it('invoices.forBooking: only the booking’s owner lists its invoices', async () => {
    const { bookingId } = await createBookingOn(t, { userId: owner.userId });
    const call = async (id: 'real' | 'unknown', cookie: string | undefined) =>
      answer(
        await callProcedure(
          t,
          'query',
          'invoices.forBooking',
          { bookingId: id === 'real' ? bookingId : 'bk_doesnotexist000000' },
          { cookie },
        ),
      );
    await expectOthersRefused(call, (cookie) => (cookie ? 404 : 401));
    expect((await call('real', owner.cookie)).status).toBe(200);
  });

  it('invoices.addBuyerGstin: nobody but the booking’s owner can touch its invoice', async () => {
    const { bookingId } = await createBookingOn(t, { userId: owner.userId });
    const call = async (id: 'real' | 'unknown', cookie: string | undefined) =>
      answer(
        await callProcedure(
          t,
          'mutation',
          'invoices.addBuyerGstin',
          {
            bookingId: id === 'real' ? bookingId : 'bk_doesnotexist000000',
            buyerGstin: '27AAPFU0939F1ZV',
            buyerLegalName: 'Someone Pvt Ltd',
            buyerAddress: '4 MG Road, Pune 411001',
          },
          { cookie },
        ),
      );
    await expectOthersRefused(call, (cookie) => (cookie ? 404 : 401));
  });

  it('bookings.byId: only the owner sees the booking (and its QR token)', async () => {
    const { bookingId } = await createBookingOn(t, { userId: owner.userId });
    const call = async (id: 'real' | 'unknown', cookie: string | undefined) =>
      answer(
        await callProcedure(
          t,
          'query',
          'bookings.byId',
          { bookingId: id === 'real' ? bookingId : 'bk_doesnotexist000000' },
          { cookie },
        ),
      );
    expect(PROCEDURES['bookings.byId']).toMatchObject({ signedOut: 404 });
    await expectOthersRefused(call, () => 404);
    expect((await call('unknown', stranger.cookie)).message).toBe('Booking not found');
    const mine = await call('real', owner.cookie);
    expect(mine.status).toBe(200);
    expect(mine.data).toMatchObject({ id: bookingId });
  });

  it.each([
    ['query', 'transfers.status', {}],
    ['mutation', 'transfers.start', { name: 'Meera Iyer', email: 'meera@example.com', mobile: '' }],
    ['mutation', 'transfers.cancel', {}],
  ] as const)(
    '%s %s: only the owner sees, offers or takes back a transfer of the booking',
    async (type, path, extra) => {
      const { bookingId } = await createBookingOn(t, { userId: owner.userId });
      const call = async (id: 'real' | 'unknown', cookie: string | undefined) =>
        answer(
          await callProcedure(
            t,
            type,
            path,
            { ...extra, bookingId: id === 'real' ? bookingId : 'bk_doesnotexist000000' },
            { cookie },
          ),
        );
      await expectOthersRefused(call, (cookie) => (cookie ? 404 : 401));
      expect((await call('real', stranger.cookie)).message).toBe('Booking not found');
      const { bookings } = tablesOf(t.deps.db);
      const [booking] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
      expect(booking?.userId).toBe(owner.userId);
    },
  );

  it.each([
    ['query', 'waitlist.offer'],
    ['mutation', 'waitlist.payOffer'],
    ['mutation', 'waitlist.leave'],
  ] as const)('%s %s: only the entry’s account sees, pays for or leaves it', async (type, path) => {
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 50_000, totalTickets: 1 }],
    });
    const holder = await signedInUser(t);
    const held = await proceed(t, holder.cookie, ev, 1);
    const joined = await callProcedure(
      t,
      'mutation',
      'waitlist.join',
      {
        ticketTypeId: ev.ticketTypeIds[0],
        quantity: 1,
        details: { name: 'Asha Verma', email: owner.email, phone: '9876543210', state: 'Maharashtra' },
      },
      { cookie: owner.cookie },
    );
    const { entryId } = joined.data as { entryId: string };
    // Seats come back: the owner's entry gets its offer (a hold), so Pay has something to open.
    await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: held.holdId, reason: 'cancelled' },
      {
        cookie: holder.cookie,
      },
    );
    const call = async (id: 'real' | 'unknown', cookie: string | undefined) =>
      answer(
        await callProcedure(
          t,
          type,
          path,
          { entryId: id === 'real' ? entryId : 'wl_doesnotexist000000' },
          {
            cookie,
          },
        ),
      );
    await expectOthersRefused(call, (cookie) => (cookie ? 404 : 401));
    const mine = await call('real', owner.cookie);
    expect(mine.status, mine.message ?? '').toBe(200);
  });

  it.each([
    ['query', 'bookings.cancellationQuote'],
    ['mutation', 'bookings.cancel'],
    ['mutation', 'bookings.cancelSomeTickets'],
  ] as const)(
    '%s %s: only the owner quotes or cancels the booking; nothing changes for others',
    async (type, path) => {
      const { bookingId } = await createBookingOn(t, { userId: owner.userId });
      const call = async (id: 'real' | 'unknown', cookie: string | undefined) =>
        answer(
          await callProcedure(
            t,
            type,
            path,
            {
              bookingId: id === 'real' ? bookingId : 'bk_doesnotexist000000',
              ...(path === 'bookings.cancelSomeTickets'
                ? { tickets: [{ ticketTypeId: 'any', quantity: 1 }] }
                : {}),
            },
            { cookie },
          ),
        );
      await expectOthersRefused(call, (cookie) => (cookie ? 404 : 401));
      expect((await call('real', stranger.cookie)).message).toBe('Booking not found');
      const { bookings } = tablesOf(t.deps.db);
      const [status] = await t.deps.db
        .select({ status: bookings.status })
        .from(bookings)
        .where(eq(bookings.id, bookingId));
      expect(status?.status).toBe('confirmed');
    },
  );

  it('questions.correctAttendeeName and myAttendees: only the holder renames or reads the attendees; nothing changes for others', async () => {
    const { bookingId, row } = await createBookingOn(t, { userId: owner.userId });
    const ticketTypeId = row.ticketTypes[0]!.id;
    const call = async (id: 'real' | 'unknown', cookie: string | undefined) =>
      answer(
        await callProcedure(
          t,
          'mutation',
          'questions.correctAttendeeName',
          {
            bookingId: id === 'real' ? bookingId : 'bk_doesnotexist000000',
            ticketTypeId,
            position: 1,
            name: 'Evil Name',
          },
          { cookie },
        ),
      );
    await expectOthersRefused(call, (cookie) => (cookie ? 404 : 401));
    expect(await t.deps.db.select().from(tablesOf(t.deps.db).bookingAttendees)).toEqual([]);
    expect((await call('real', owner.cookie)).status).toBe(200);
    const mine = async (id: 'real' | 'unknown', cookie: string | undefined) =>
      answer(
        await callProcedure(
          t,
          'query',
          'questions.myAttendees',
          { bookingId: id === 'real' ? bookingId : 'bk_doesnotexist000000' },
          { cookie },
        ),
      );
    await expectOthersRefused(mine, (cookie) => (cookie ? 404 : 401));
    expect((await mine('real', owner.cookie)).data).toMatchObject({
      attendees: [
        { position: 1, name: 'Evil Name' },
        { position: 2, name: '' },
      ],
    });
  });

  it.each(['pdf', 'ics'])('GET /api/tickets/{id}.%s: only the owner downloads it', async (ext) => {
    const { bookingId } = await createBookingOn(t, { userId: owner.userId });
    const call = async (id: 'real' | 'unknown', cookie: string | undefined) => {
      const res = await t.request(
        `/api/tickets/${id === 'real' ? bookingId : 'bk_doesnotexist000000'}.${ext}`,
        { headers: cookie ? { cookie } : {} },
      );
      const text = await res.text();
      return { status: res.status, message: text, data: null };
    };
    // Signed out is not-found too: a file URL names one booking, and says nothing about it.
    await expectOthersRefused(call, () => 404);
    const mine = await call('real', owner.cookie);
    expect(mine.status).toBe(200);
    expect(mine.message).toContain(ext === 'pdf' ? '%PDF-' : 'BEGIN:VCALENDAR');
  });

  it('payments.confirm: nobody but the buyer can turn the buyer’s paid order into a booking', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const session = await proceed(t, owner.cookie, ev, 2);
    // The genuine signed result (as the payment window returns it), without the simulator's webhooks.
    const paid = await simulatePayment(t.deps, session.orderId);
    const genuine = {
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    };
    const call = async (id: 'real' | 'unknown', cookie: string | undefined) =>
      answer(
        await callProcedure(
          t,
          'mutation',
          'payments.confirm',
          id === 'real' ? genuine : { ...genuine, orderId: 'order_doesnotexist00' },
          { cookie },
        ),
      );
    await expectOthersRefused(call, (cookie) => (cookie ? 404 : 401));
    const { bookings, holds } = tablesOf(t.deps.db);
    expect(await t.deps.db.select().from(bookings)).toEqual([]);
    expect((await t.deps.db.select().from(holds).where(eq(holds.id, session.holdId)))[0]?.status).toBe(
      'active',
    );

    const mine = await call('real', owner.cookie);
    expect(mine.status).toBe(200);
    const booked = await t.deps.db.select().from(bookings);
    expect(booked.map((b) => b.userId)).toEqual([owner.userId]);
  });

  it('payments.release: nobody but the buyer can put the buyer’s held seats back on sale', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const session = await proceed(t, owner.cookie, ev, 3);
    const call = async (id: 'real' | 'unknown', cookie: string | undefined) =>
      answer(
        await callProcedure(
          t,
          'mutation',
          'payments.release',
          {
            holdId: id === 'real' ? session.holdId : '00000000-0000-4000-8000-000000000000',
            reason: 'cancelled',
          },
          { cookie },
        ),
      );
    // Signed out: 401. Signed in: the procedure answers { released: false } for a hold that is not
    // yours exactly as for one that does not exist (no 404, but no difference and no effect).
    for (const { who, cookie } of others) {
      const real = await call('real', cookie);
      expect(real, who).toEqual(await call('unknown', cookie));
      if (cookie) expect(real, who).toEqual({ status: 200, message: null, data: { released: false } });
      else expect(real.status, who).toBe(401);
    }
    const { holds } = tablesOf(t.deps.db);
    expect((await t.deps.db.select().from(holds).where(eq(holds.id, session.holdId)))[0]?.status).toBe(
      'active',
    );
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ held: 3, available: 47 });

    expect(await call('real', owner.cookie)).toEqual({
      status: 200,
      message: null,
      data: { released: true },
    });
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ held: 0, available: 50 });
  });

  it('gate.scan: the event’s gate staff only; the ticket’s owner and other events’ staff cannot check it in', async () => {
    const {
      bookingId,
      eventId,
      row: booking,
    } = await createBookingOn(t, {
      userId: owner.userId,
      quantity: 1,
      personAllowedPerTicket: 1,
    });
    const token = signTicketToken(t.deps.appSecret, bookingId);
    const call = async (id: 'real' | 'unknown', cookie: string | undefined) =>
      answer(
        await callProcedure(
          t,
          'mutation',
          'gate.scan',
          {
            eventId: id === 'real' ? eventId : 'evt-doesnotexist',
            slotId: booking.slotId,
            gate: 'North gate',
            deviceId: 'd1',
            scanId: `scan-${id}-${cookie ?? 'none'}`.slice(0, 60),
            token,
            persons: 1,
          },
          { cookie },
        ),
      );
    for (const { who, cookie } of [...others, { who: 'the owner', cookie: owner.cookie }]) {
      const real = await call('real', cookie);
      expect(real, who).toEqual(await call('unknown', cookie));
      expect(real.status, who).toBe(cookie ? 404 : 401);
    }
    const { bookings } = tablesOf(t.deps.db);
    const row = async () => (await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!;
    expect(await row()).toMatchObject({ isCheckIn: false, numberOfUserCheckedIn: 0 });

    const eventStaff = await signedInUser(t);
    await setGateStaff(t.deps.db, eventStaff.email, eventId, true, t.clock.now());
    const admitted = await call('real', eventStaff.cookie);
    expect(admitted.status).toBe(200);
    expect(admitted.data).toMatchObject({ outcome: 'admit' });
    expect(await row()).toMatchObject({ isCheckIn: true, numberOfUserCheckedIn: 1 });
  });

  it('bookings.mine lists only the caller’s own bookings', async () => {
    const { bookingId } = await createBookingOn(t, { userId: owner.userId });
    for (const cookie of [stranger.cookie, staff.cookie]) {
      const res = await callProcedure(t, 'query', 'bookings.mine', undefined, { cookie });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.data)).not.toContain(bookingId);
    }
    const mine = await callProcedure(t, 'query', 'bookings.mine', undefined, { cookie: owner.cookie });
    expect((mine.data as { id: string }[]).map((b) => b.id)).toEqual([bookingId]);
  });

  it("the simulator's Pay on someone else's order books it for the order's owner, never for the payer", async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const session = await proceed(t, owner.cookie, ev, 1);

    const peek = await t.request(`/api/simulator/orders/${session.orderId}`);
    expect(peek.status).toBe(200);
    const shown = await peek.json();
    expect(Object.keys(shown).sort()).toEqual(['amount', 'currency', 'id', 'status']);

    const paid = await t.request(`/api/simulator/orders/${session.orderId}/pay`, {
      method: 'POST',
      headers: { cookie: stranger.cookie },
    });
    expect(paid.status).toBe(200);
    await simulatorWebhooksDelivered(t.deps);
    expect((await t.deps.db.select().from(tablesOf(t.deps.db).bookings)).map((b) => b.userId)).toEqual([
      owner.userId,
    ]);
    const strangers = await callProcedure(t, 'query', 'bookings.mine', undefined, {
      cookie: stranger.cookie,
    });
    expect(strangers.data).toEqual([]);

    // An order id that was never issued is unknown to the gateway.
    expect(
      (await t.request('/api/simulator/orders/order_doesnotexist00/pay', { method: 'POST' })).status,
    ).toBe(404);
  });
});

describe('development-only routes', () => {
  it('/dev/mail (which shows reset links) does not exist in production', async () => {
    const prod = createTestApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.in' });
    try {
      expect(prod.app.routes.some((r) => r.path.startsWith('/dev/'))).toBe(false);
      for (const path of ['/dev/mail', '/dev/mail/anything', '/dev/mail/anything/html']) {
        const res = await prod.request(path);
        expect(res.status, path).toBe(404);
        expect(await res.text()).not.toContain('Development mailbox');
      }
    } finally {
      prod.close();
    }
  });

  it('/api/create-order (the test page) is off in production with live Razorpay keys', async () => {
    const prod = createTestApp({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://tickets.example.in',
      RAZORPAY_KEY_ID: 'rzp_live_key',
      RAZORPAY_KEY_SECRET: 'live-secret',
      RAZORPAY_WEBHOOK_SECRET: 'live-webhook-secret',
    });
    try {
      const res = await prod.request('/api/create-order', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 1_000_000, currency: 'INR' }),
      });
      expect(res.status).toBe(404);
    } finally {
      prod.close();
    }
  });
});
