import { type EventRole, ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { forbidden, notFound } from '../../errors.ts';
import { getAccountRole } from '../roles/get-account-role.ts';
import { type EventPermission, eventRoleMay } from './event-permissions.ts';
import { type ConsoleEvent, loadEventAccess } from './load-event-access.ts';

/**
 * The event-scoped middleware's check (trpc/init.ts `eventProcedure`) for plain HTTP routes: the same
 * lookups, the same answers. An event the caller has no role on is not found, exactly like one that
 * does not exist; a role without the permission is not allowed.
 */
export function requireEventPermission(
  db: Db,
  eventId: string,
  userId: string,
  permission: EventPermission,
): ConsoleEvent {
  const access = loadEventAccess(db, eventId, userId, getAccountRole(db, userId));
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
  db: Db,
  eventId: string,
  userId: string,
  permission: EventPermission,
): boolean {
  const access = loadEventAccess(db, eventId, userId, getAccountRole(db, userId));
  return access !== null && eventRoleMay(access.role, permission);
}
