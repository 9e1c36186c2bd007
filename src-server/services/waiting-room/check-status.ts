import type Database from 'better-sqlite3';
import type pg from 'pg';
import { ADMISSION_PASS_MS, type WaitingRoomStatus } from '../../../shared/waiting-room.ts';
import { oncePer } from '../../db/once-per.ts';
import { type QueueState, queueStateOf, queueStateOnPostgres } from './queue-state.ts';
import { signAdmissionPass, verifyQueueToken } from './tokens.ts';

/**
 * Within this wait, check every NEAR_CHECK_MS; beyond, less often the further back (up to FAR_CHECK_MS,
 * five minutes, for someone more than 50 minutes from the head).
 */
const NEAR_WAIT_MS = 2 * 60_000;
export const NEAR_CHECK_MS = 2_000;
export const FAR_CHECK_MS = 300_000;
/** The widest spread of the first checks after opening (see beforeOpening). */
const OPENING_SPREAD_MAX_MS = 120_000;
/** An admitted visitor renews the pass well before it lapses. */
const ADMITTED_CHECK_MS = 60_000;

/**
 * A waiting visitor's status check, the request a rush repeats most: no session look-up (the queue
 * token says who is asking), no write, the room from the in-memory copy (queue-state.ts) and the
 * visitor's place by primary key. Without a token (signed out, or not joined yet) it answers the
 * room's public state only; a token that is not ours, or for another event, counts as none.
 */
export function checkWaitingRoomStatus(
  deps: { sqlite: Database.Database } & StatusDeps,
  eventId: string,
  queueToken: string | undefined,
): WaitingRoomStatus {
  const room = queueStateOf(deps.sqlite, eventId, deps.now.getTime());
  const token = room?.enabled && queueToken ? verifyQueueToken(deps.appSecret, queueToken, eventId) : null;
  const place = token
    ? (visitorStatement(deps.sqlite).get(token.visitorId, eventId) as Place | undefined)
    : undefined;
  return statusOf(deps, eventId, room, token, place);
}

/**
 * The same check on PostgreSQL (DATABASE_URL): the room from this server's copy (queue-state.ts), the
 * place by primary key on the pool. Every server answers alike, the queue being in the database.
 */
export async function checkWaitingRoomStatusOnPostgres(
  deps: { pool: pg.Pool } & StatusDeps,
  eventId: string,
  queueToken: string | undefined,
): Promise<WaitingRoomStatus> {
  const room = await queueStateOnPostgres(deps.pool, eventId, deps.now.getTime());
  const token = room?.enabled && queueToken ? verifyQueueToken(deps.appSecret, queueToken, eventId) : null;
  const place = token
    ? (
        await deps.pool.query<Place>(
          'select user_id as "userId", position from waiting_room_visitors where id = $1 and event_id = $2',
          [token.visitorId, eventId],
        )
      ).rows[0]
    : undefined;
  return statusOf(deps, eventId, room, token, place);
}

interface StatusDeps {
  appSecret: string;
  now: Date;
  random?: () => number;
}

function statusOf(
  deps: StatusDeps,
  eventId: string,
  room: QueueState | null,
  token: { visitorId: number; userId: string } | null,
  place: Place | undefined,
): WaitingRoomStatus {
  const nowMs = deps.now.getTime();
  const random = deps.random ?? Math.random;
  const base = {
    enabled: room?.enabled ?? false,
    opensAt: room?.opensAt ?? null,
    serverNow: deps.now.toISOString(),
    open: !!room && nowMs >= room.opensAtMs,
    soldOut: room?.soldOut ?? false,
    admitPerMinute: room?.admitPerMinute ?? 0,
  };
  if (!room?.enabled) return { ...base, nextCheckMs: jitter(60_000, random) };
  if (!token || !place || place.userId !== token.userId) {
    return { ...base, nextCheckMs: beforeOpening(room, nowMs, random) ?? jitter(30_000, random) };
  }
  const position = place.position;
  const admitted = position !== null && position <= room.admittedThrough;
  const ahead = position === null ? null : Math.max(0, position - room.admittedThrough - 1);
  const waitMs = ahead === null || admitted ? null : ((ahead + 1) * 60_000) / room.admitPerMinute;
  const passExpiresAt = admitted ? nowMs + ADMISSION_PASS_MS : null;
  return {
    ...base,
    visitor: {
      position,
      ahead: admitted ? 0 : ahead,
      estimatedWaitMinutes: waitMs === null ? null : Math.max(1, Math.ceil(waitMs / 60_000)),
      admitted,
      pass:
        passExpiresAt === null
          ? null
          : signAdmissionPass(deps.appSecret, { eventId, userId: token.userId, expiresAt: passExpiresAt }),
      passExpiresAt: passExpiresAt === null ? null : new Date(passExpiresAt).toISOString(),
    },
    nextCheckMs: base.soldOut
      ? jitter(60_000, random)
      : (beforeOpening(room, nowMs, random) ??
        (admitted ? jitter(ADMITTED_CHECK_MS, random) : jitter(checkIntervalFor(waitMs), random))),
  };
}

/**
 * How long a visitor this far from admission waits before asking again: every 2 s within two minutes
 * of it (so nobody loses seconds of their turn), then a tenth of the estimated wait, capped at five
 * minutes: the 200,000th visitor at 1,000 a minute asks every five minutes, not every two seconds.
 * Null (not placed yet, just after opening): soon.
 */
export function checkIntervalFor(waitMs: number | null): number {
  if (waitMs === null || waitMs <= NEAR_WAIT_MS) return NEAR_CHECK_MS;
  return Math.min(FAR_CHECK_MS, Math.max(5_000, waitMs / 10));
}

/**
 * Before opening, nobody's place exists yet: ask again shortly after opening, spread over a window
 * that grows with the crowd (2 s per 10,000 visitors, up to two minutes), so a million visitors do not
 * all ask in the same second. A visitor whose first check comes late loses nothing: an admitted place
 * stays admitted, and the pass is issued whenever they ask. Null once open.
 */
function beforeOpening(room: QueueState, nowMs: number, random: () => number): number | null {
  const untilOpen = room.opensAtMs - nowMs;
  if (untilOpen <= 0) return null;
  if (untilOpen > 3 * 60_000) return jitter(Math.min(FAR_CHECK_MS, untilOpen - 2 * 60_000), random);
  const spreadMs = openingSpreadMs(room.arrivals);
  return Math.round(untilOpen + 250 + random() * spreadMs);
}

/** How widely the first checks after opening are spread for a crowd this size. */
export function openingSpreadMs(arrivals: number): number {
  return Math.min(OPENING_SPREAD_MAX_MS, Math.max(2_000, (arrivals / 10_000) * 2_000));
}

/** ±20 %, so visitors who joined together drift apart instead of asking in step. */
function jitter(ms: number, random: () => number): number {
  return Math.round(ms * (0.8 + 0.4 * random()));
}

interface Place {
  userId: string;
  position: number | null;
}

const visitorStatement = oncePer((sqlite: Database.Database) =>
  sqlite.prepare(
    'select user_id as userId, position from waiting_room_visitors where id = ? and event_id = ?',
  ),
);
