import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError, z } from 'zod';
import { EventIdInput, ORGANISER_MESSAGES } from '../../shared/organiser-schemas.ts';
import { DomainError } from '../errors.ts';
import { getAccountRole, runsTheConsole } from '../services/roles/get-account-role.ts';
import { type EventPermission, eventRoleMay } from '../services/team/event-permissions.ts';
import { loadEventAccess } from '../services/team/load-event-access.ts';
import type { Context } from './context.ts';
import { refuseNulInText } from './nul-in-text.ts';

export const GENERIC_ERROR_MESSAGE = 'Something went wrong. Please try again.';

const t = initTRPC.context<Context>().create({
  // Never send stack traces, whatever NODE_ENV says.
  isDev: false,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    let fieldErrors: Record<string, string> | undefined;
    if (cause instanceof ZodError) fieldErrors = firstMessagePerField(cause);
    else if (cause instanceof DomainError) fieldErrors = cause.fieldErrors;
    const message =
      error.code === 'INTERNAL_SERVER_ERROR'
        ? GENERIC_ERROR_MESSAGE
        : cause instanceof ZodError
          ? (Object.values(fieldErrors ?? {})[0] ?? 'Invalid input')
          : shape.message;
    return {
      message,
      code: shape.code,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, fieldErrors },
    };
  },
});

/** Turns a service's DomainError into the matching tRPC code, keeping the spec's message. */
function withDomainErrors<Result extends { ok: true } | { ok: false; error: TRPCError }>(
  result: Result,
): Result {
  if (!result.ok && result.error.cause instanceof DomainError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: cause.code, message: cause.message, cause });
  }
  return result;
}

/**
 * The call's raw input, for the U+0000 check. A body that cannot be read (a call without input, e.g. a
 * sign-out posted with no body) is no concern of that check: a procedure without input never reads it,
 * and one with input refuses it through its own parser, as it did before the check.
 */
async function rawInputOf(getRawInput: () => Promise<unknown>): Promise<unknown> {
  try {
    return await getRawInput();
  } catch {
    return undefined;
  }
}

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/** Every procedure's first step (in the one middleware each base has): no U+0000 in any text (nul-in-text.ts). */
export const publicProcedure = t.procedure.use(async ({ next, getRawInput }) => {
  refuseNulInText(await rawInputOf(getRawInput));
  return withDomainErrors(await next());
});

/**
 * A procedure for signed-in people only; `ctx.user` is non-null inside. One middleware does both the
 * check and the error mapping, and passes only the two narrowed fields: tRPC copies its options and
 * the whole context at every middleware layer, on every signed-in call (docs/benchmarks.md).
 */
export const protectedProcedure = t.procedure.use(async ({ ctx, next, getRawInput }) => {
  if (!ctx.user || !ctx.sessionId)
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'User not authenticated' });
  refuseNulInText(await rawInputOf(getRawInput));
  return withDomainErrors(await next({ ctx: { user: ctx.user, sessionId: ctx.sessionId } }));
});

/**
 * Signed in, with the account's installation-wide role read once for the request (one primary-key
 * lookup; buyer procedures never pay for it). The base of the role and event middlewares below.
 */
const roleProcedure = protectedProcedure.use(async ({ ctx, next }) =>
  next({ ctx: { role: await getAccountRole(ctx.db, ctx.user.id) } }),
);

const notAllowed = () => new TRPCError({ code: 'FORBIDDEN', message: ORGANISER_MESSAGES.notAllowed });

/** Admins of the installation only; anyone else signed in is told they are not allowed. */
export const adminProcedure = roleProcedure.use(({ ctx, next }) => {
  if (ctx.role !== 'admin') throw notAllowed();
  return next({ ctx: { role: 'admin' as const } });
});

/** Organisers (and admins, who may do what organisers do). */
export const organiserProcedure = roleProcedure.use(({ ctx, next }) => {
  if (!runsTheConsole(ctx.role)) throw notAllowed();
  return next({ ctx: { role: ctx.role } });
});

/**
 * A procedure about one event (input `eventId`): loads the event and the caller's role on it (owner,
 * admin, co-organiser or gate staff) and passes both to the handler as `ctx.event` and `ctx.eventRole`.
 * An event the caller has no role on answers exactly like one that does not exist; a role the
 * permission does not include is refused as not allowed (the caller knows the event already).
 */
export function eventProcedure(permission: EventPermission) {
  return roleProcedure.input(EventIdInput).use(async ({ ctx, input, next }) => {
    const access = await loadEventAccess(ctx.db, input.eventId, ctx.user.id, ctx.role);
    if (!access) throw new TRPCError({ code: 'NOT_FOUND', message: ORGANISER_MESSAGES.eventNotFound });
    if (!eventRoleMay(access.role, permission)) throw notAllowed();
    return next({ ctx: { event: access.event, eventRole: access.role } });
  });
}

function firstMessagePerField(error: ZodError): Record<string, string> {
  const flat = z.flattenError(error);
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(flat.fieldErrors) as [string, string[] | undefined][]) {
    if (messages?.[0]) out[field] = messages[0];
  }
  if (Object.keys(out).length === 0 && flat.formErrors[0]) out._form = flat.formErrors[0];
  return out;
}
