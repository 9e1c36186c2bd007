import { makeImage } from './images.ts';

/**
 * A site driven over HTTP as its visitors and its console drive it, the same whether the app is called
 * in-process (`TestApp.request`) or a real server over the network (`fetch`): sign-up, sign-in, an
 * event built in the console and published, and the storefront listing it. The engine-app and
 * postgres-servers tests run it against SQLite and PostgreSQL alike.
 */
export type Fetcher = (pathname: string, init?: RequestInit) => Promise<Response>;

/** TestApp.request's origin; a real server's is its base URL. */
export const SITE_ORIGIN = 'http://localhost';

export interface Answer<T> {
  status: number;
  data: T;
  error?: { message: string; data?: { code: string } };
  cookie?: string;
}

/** A Proceed (`payments.start`) of `quantity` tickets of the event's one type, with the same buyer's details. */
export function proceedInput(
  event: { eventId: string; dateId: string; slotId: string; ticketTypeId: string },
  quantity: number,
) {
  return {
    eventId: event.eventId,
    selectedDate: event.dateId,
    selectedSlot: event.slotId,
    selectedTickets: [{ ticketTypeId: event.ticketTypeId, quantity }],
    ticketDetails: {
      name: 'Asha Verma',
      email: 'asha@example.in',
      phone: '+91 98765-43210',
      state: 'Maharashtra',
    },
  };
}

export function storefront(fetcher: Fetcher, origin = SITE_ORIGIN) {
  async function call<T>(
    kind: 'query' | 'mutation',
    procedure: string,
    input?: unknown,
    cookie?: string,
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { origin };
    if (cookie) headers.cookie = cookie;
    const res =
      kind === 'query'
        ? await fetcher(
            `/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
            { headers },
          )
        : await fetcher(`/trpc/${procedure}`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(input),
          });
    const body = (await res.json()) as { result?: { data: T }; error?: Answer<T>['error'] };
    return {
      status: res.status,
      data: body.result?.data as T,
      error: body.error,
      cookie: res.headers.getSetCookie()[0]?.split(';')[0],
    };
  }

  /** A procedure that must succeed: its data, or a failure naming it and the server's message. */
  async function ok<T>(kind: 'query' | 'mutation', procedure: string, input?: unknown, cookie?: string) {
    const answer = await call<T>(kind, procedure, input, cookie);
    if (answer.status !== 200) {
      throw new Error(`${procedure} answered ${answer.status}: ${JSON.stringify(answer.error)}`);
    }
    return answer;
  }

  return {
    call,
    ok,

    /** Signs up (the session cookie it sets), then signs in again with the password (a second cookie). */
    async signUpAndSignIn(name: string, email: string, password = 'a-long-password') {
      const signedUp = await ok('mutation', 'auth.signUp', {
        name,
        email,
        mobile: '',
        password,
        confirmPassword: password,
        acceptTerms: true,
      });
      await ok('mutation', 'auth.signOut', undefined, signedUp.cookie);
      const signedIn = await ok('mutation', 'auth.signIn', { email, password });
      const me = await ok<{ email: string } | null>('query', 'auth.me', undefined, signedIn.cookie);
      return { signUpCookie: signedUp.cookie!, cookie: signedIn.cookie!, me: me.data };
    },

    /**
     * An event built in the console as an organiser does (details, a poster, a date a week on, a slot, a
     * ticket type) and published; returns its id and the ticket type's.
     */
    async publishEvent(cookie: string, name: string, city: string, now = new Date(), totalTickets = 100) {
      const details = {
        name,
        category: 'concerts',
        city,
        eventLocationText: 'Ganesh Kala Krida Manch, Swargate',
        googleMapsEmbedLink: 'https://maps.google.com/?q=Ganesh+Kala+Krida',
        description: 'A show on a site of several servers.',
        ageRestrictions: 0,
        language: 'Hindi',
        termsAndConditions: ['Carry a photo ID.'],
        artists: [{ name: 'House Band' }],
        platformFeeRate: 4,
      };
      const created = (
        await ok<{ eventId: string; version: number }>('mutation', 'organiser.createEvent', details, cookie)
      ).data;
      const upload = await fetcher(`/api/organiser/events/${created.eventId}/images?kind=poster`, {
        method: 'POST',
        headers: { origin, cookie, 'content-type': 'application/octet-stream' },
        body: await makeImage('jpeg', 1200, 1600),
      });
      if (upload.status !== 201)
        throw new Error(`poster upload answered ${upload.status}: ${await upload.text()}`);
      const { url: posterUrl } = (await upload.json()) as { url: string };
      const updated = (
        await ok<{ version: number }>(
          'mutation',
          'organiser.updateDetails',
          { eventId: created.eventId, version: created.version, ...details, posterUrl },
          cookie,
        )
      ).data;
      const inAWeek = new Date(now.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
      const date = (
        await ok<{ version: number; dateId: string }>(
          'mutation',
          'organiser.addDate',
          { eventId: created.eventId, version: updated.version, day: inAWeek },
          cookie,
        )
      ).data;
      const slot = (
        await ok<{ version: number; slotId: string }>(
          'mutation',
          'organiser.addSlot',
          {
            eventId: created.eventId,
            version: date.version,
            dateId: date.dateId,
            startTime: '19:00',
            endTime: '21:00',
          },
          cookie,
        )
      ).data;
      const ticket = (
        await ok<{ version: number; ticketTypeId: string }>(
          'mutation',
          'organiser.addTicketType',
          {
            eventId: created.eventId,
            version: slot.version,
            slotId: slot.slotId,
            ticket: {
              name: 'Gold',
              priceRupees: 499,
              totalTickets,
              maxPerOrder: 6,
              personAllowedPerTicket: 1,
              description: '',
              benefits: [],
              isRefundable: true,
              onSale: true,
              saleOpensAt: null,
              saleClosesAt: null,
            },
          },
          cookie,
        )
      ).data;
      const published = (
        await ok<{ published: boolean; missing?: string[] }>(
          'mutation',
          'organiser.publish',
          { eventId: created.eventId, version: ticket.version },
          cookie,
        )
      ).data;
      if (!published.published) throw new Error(`not published: ${JSON.stringify(published)}`);
      return {
        eventId: created.eventId,
        dateId: date.dateId,
        slotId: slot.slotId,
        ticketTypeId: ticket.ticketTypeId,
      };
    },

    /**
     * A buyer's whole purchase as the checkout page makes it with the offline simulator: Proceed
     * (`payments.start`), the simulator dialog's Pay, then the page's confirm callback with the signed
     * result. Returns each answer, so a test sees which step refused.
     */
    async buy(
      cookie: string,
      event: { eventId: string; dateId: string; slotId: string; ticketTypeId: string },
      quantity = 1,
      admissionPass?: string,
    ) {
      const started = await call<{ orderId: string; holdId: string; amountPaise: number }>(
        'mutation',
        'payments.start',
        { ...proceedInput(event, quantity), ...(admissionPass && { admissionPass }) },
        cookie,
      );
      if (started.status !== 200) return { started, paid: undefined, confirmed: undefined };
      const payRes = await fetcher(`/api/simulator/orders/${started.data.orderId}/pay`, {
        method: 'POST',
        headers: { origin, cookie },
      });
      const paid = {
        status: payRes.status,
        data: (await payRes.json()) as {
          razorpay_order_id: string;
          razorpay_payment_id: string;
          razorpay_signature: string;
        },
      };
      if (paid.status !== 200) return { started, paid, confirmed: undefined };
      const confirmed = await call<{ outcome: string; bookingId?: string }>(
        'mutation',
        'payments.confirm',
        {
          orderId: paid.data.razorpay_order_id,
          paymentId: paid.data.razorpay_payment_id,
          signature: paid.data.razorpay_signature,
        },
        cookie,
      );
      return { started, paid, confirmed };
    },

    /** The ids the home page's first paint lists for `city` (its own row and everyone else's). */
    async homeEventIds(city: string): Promise<string[]> {
      const home = (await ok<unknown>('query', 'events.home', { city })).data;
      return [...JSON.stringify(home).matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]!);
    },

    /** The event page's data (its name; its dates, slots and ticket types as `tickets`), and the status. */
    async eventPage(id: string) {
      return call<{ id: string; name: string; tickets: unknown[] }>('query', 'events.byId', { id });
    },
  };
}
