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
  trpcMsw.events.byId.query(({ input }) => {
    const event = catalog.details.find((e) => e.id === input.id);
    if (!event) throw new TRPCError({ code: 'NOT_FOUND', message: 'Event not found' });
    return event;
  }),
  trpcMsw.contact.send.mutation(() => ({ id: 1 })),
];

export const trpcHandlers = [...accountHandlers, ...catalogHandlers];
