import { TRPCError } from '@trpc/server';
import { createTRPCMsw, httpLink } from 'msw-trpc';
import type { AppRouter } from '../../src-server/trpc/root.ts';
import { mockCatalog } from './catalog-fixtures.ts';

/**
 * msw answers for tRPC procedures, used by `npm run dev:mock` and by client tests. Each area adds
 * handlers with representative data so front-end work needs no server.
 */
export const trpcMsw = createTRPCMsw<AppRouter>({ links: [httpLink({ url: '/trpc' })] });

/** A signed-in demo account, so `npm run dev:mock` shows the user menu and the profile page. */
const demoAccount = {
  id: 'mock-user-1',
  name: 'Asha Verma',
  email: 'asha@example.com',
  phone: '9876543210',
  imageUrl: null,
  isEmailVerified: true,
  gender: 'female' as const,
  country: 'india' as const,
  state: 'Karnataka',
  about: null,
  bookingIdsList: [],
  hasPassword: true,
  googleLinked: false,
  updatedAt: '2026-11-01T10:00:00.000Z',
};

const accountHandlers = [
  trpcMsw.auth.me.query(() => demoAccount),
  trpcMsw.auth.googleEnabled.query(() => false),
  trpcMsw.auth.signIn.mutation(() => demoAccount),
  trpcMsw.auth.signUp.mutation(() => demoAccount),
  trpcMsw.auth.signOut.mutation(() => ({ ok: true as const })),
  trpcMsw.auth.updateProfile.mutation(({ input }) => ({
    ...demoAccount,
    ...input,
    phone: input.phone || null,
    gender: input.gender || null,
    country: input.country || null,
  })),
];

/** The demo catalogue, dated from today, answering the storefront's procedures. */
const catalog = mockCatalog();
const catalogHandlers = [
  trpcMsw.events.list.query(({ input }) => catalog.list(input ?? {})),
  trpcMsw.events.search.query(({ input }) => catalog.search(input.q)),
  trpcMsw.events.page.query(({ input }) => catalog.page(input)),
  trpcMsw.events.home.query(({ input }) => catalog.home(input.city)),
  trpcMsw.events.searchPage.query(({ input }) => catalog.searchPage(input.q, input.cursor, input.limit)),
  trpcMsw.events.suggest.query(({ input }) => ({
    events: catalog
      .search(input.q)
      .slice(0, 5)
      .map((e) => ({ id: e.id, name: e.name, city: e.city })),
    categories: [],
    cities: [],
  })),
  trpcMsw.events.byId.query(({ input }) => {
    const event = catalog.details.find((e) => e.id === input.id);
    if (!event) throw new TRPCError({ code: 'NOT_FOUND', message: 'Event not found' });
    return event;
  }),
  trpcMsw.contact.send.mutation(() => ({ id: 1 })),
];

/** Ticket selection and checkout on the §3 fallback ticket types; payments answer as the simulator would. */
const checkoutHandlers = [
  trpcMsw.tickets.options.query(({ input }) => {
    const start = new Date(Date.now() + 14 * 86_400_000).toISOString();
    const end = new Date(Date.now() + 14 * 86_400_000 + 3 * 3_600_000).toISOString();
    const type = (key: string, name: string, pricePaise: number, total: number) => ({
      id: `${input.eventId}-${key}`,
      name,
      pricePaise,
      personAllowedPerTicket: 1,
      description: '',
      isRefundable: true,
      totalTickets: total,
      availableTickets: total,
      isLive: true,
      benefits: [] as string[],
      maxPerOrder: 10,
      saleOpensAt: null,
      saleClosesAt: null,
      isHidden: false,
    });
    return {
      event: {
        id: input.eventId,
        name: 'Mock Night Live',
        eventLocationText: 'Jawaharlal Nehru Stadium, Delhi',
        city: 'Delhi/NCR',
        posterUrl: null,
        imageUrl: null,
        startTime: start,
        endTime: end,
        platformFeeRate: null,
      },
      taxes: {
        feeTaxRatePercent: 18,
        admissionTaxRatePercent: null,
        // Not registered: no GST inside the prices, so Rule 46 weighs the price as set.
        admissionInvoiceRatePercent: null,
        admissionExemptionApplies: true,
        admissionIntraState: true,
        feeSupplierState: null,
      },
      waitingRoom: null,
      addOns: [],
      dates: [
        {
          id: `${input.eventId}-fallback-date`,
          dateOfEvent: start,
          slots: [
            {
              id: `${input.eventId}-fallback-slot`,
              startTime: start,
              endTime: end,
              cancelled: false,
              ticketTypes: [
                type('student', 'Student Pass', 19_999, 100),
                type('lounge', 'Lounge Pass', 49_999, 50),
                type('gold', 'Gold Circle', 99_999, 25),
              ],
            },
          ],
        },
      ],
    };
  }),
  trpcMsw.payments.config.query(() => ({ gateway: 'simulator' as const, keyId: 'rzp_test_jalsasimulator' })),
  trpcMsw.payments.release.mutation(() => ({ released: true })),
  trpcMsw.payments.confirm.mutation(() => ({ outcome: 'booked' as const, bookingId: 'JBMOCK234567' })),
];

/** The mock account is an organiser with one event, so 'Event' opens a console with something in it. */
const consoleHandlers = [
  trpcMsw.console.access.query(() => ({ role: 'organiser' as const, teamEvents: 0 })),
  trpcMsw.console.myEvents.query(() => [
    {
      id: 'mock-event',
      name: 'Mock Jazz Night',
      city: 'Pune',
      myRole: 'owner' as const,
      status: 'on_sale' as const,
      nextStart: '2026-12-05T13:30:00.000Z',
      sold: 12,
      capacity: 200,
      ticketRevenuePaise: 1_199_988,
      payablePaise: 1_199_988,
    },
  ]),
  trpcMsw.organiserRequests.mine.query(() => null),
];

export const trpcHandlers = [...accountHandlers, ...catalogHandlers, ...checkoutHandlers, ...consoleHandlers];
