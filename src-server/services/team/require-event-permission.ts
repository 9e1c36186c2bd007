import { type EventRole, ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import type { Steps } from '../../db/engine/steps.ts';
import { forbidden, notFound } from '../../errors.ts';
import { accountRoleSteps } from '../roles/get-account-role.ts';
import { type EventPermission, eventRoleMay } from './event-permissions.ts';
import { type ConsoleEvent, type EventAccess, eventAccessSteps } from './load-event-access.ts';

/**
 * The event-scoped middleware's check (trpc/init.ts `eventProcedure`) for plain HTTP routes: the same
 * lookups, the same answers. An event the caller has no role on is not found, exactly like one that
 * does not exist; a role without the permission is not allowed.
 */
export async function requireEventPermission(
  db: DbOrTx,
  eventId: string,
  userId: string,
  permission: EventPermission,
): Promise<ConsoleEvent> {
  const access = await runStatements(db, (d) => accessSteps(d, eventId, userId));
  if (!access) throw notFound(ORGANISER_MESSAGES.eventNotFound);
  if (!eventRoleMay(access.role, permission)) throw forbidden(ORGANISER_MESSAGES.notAllowed);
  return access.event;
}

/**
 * For a permission that depends on the event's state, known only inside the service's transaction
 * (the middleware checked the request's base permission already): refuses a role without it, with a
 * message that says why.
 */
export function requireEventRole(
  role: EventRole,
  permission: EventPermission,
  message: string = ORGANISER_MESSAGES.notAllowed,
): void {
  if (!eventRoleMay(role, permission)) throw forbidden(message);
}

/**
 * Whether the account may do `permission` on the event today, by the same lookups as the middleware.
 * For rights exercised later on someone's behalf: an invitation is only as good as its sender's right
 * to invite at the moment it is used (issue 35).
 */
export function accountMayOnEvent(
  db: DbOrTx,
  eventId: string,
  userId: string,
  permission: EventPermission,
): Promise<boolean> {
  return runStatements(db, (d) => accountMayOnEventSteps(d, eventId, userId, permission));
}

/** `accountMayOnEvent` as steps, inside a transition (on its connection, so it sees the transition's changes). */
export function* accountMayOnEventSteps(
  db: DbOrTx,
  eventId: string,
  userId: string,
  permission: EventPermission,
): Steps<boolean> {
  const access = yield* accessSteps(db, eventId, userId);
  return access !== null && eventRoleMay(access.role, permission);
}

/** The caller's installation role, then their role on the event: the middleware's two lookups. */
function* accessSteps(db: DbOrTx, eventId: string, userId: string): Steps<EventAccess | null> {
  return yield* eventAccessSteps(db, eventId, userId, yield* accountRoleSteps(db, userId));
}
