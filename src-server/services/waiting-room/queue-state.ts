import type Database from 'better-sqlite3';
import type pg from 'pg';
import { DEFAULT_ADMIT_PER_MINUTE } from '../../../shared/waiting-room.ts';
import { oncePer } from '../../db/once-per.ts';

/** The waiting room as status checks see it: at most this old. */
export const QUEUE_STATE_MAX_AGE_MS = 1_000;
/** Counting a big room's arrivals before opening scans its index: done this rarely. */
const ARRIVALS_MAX_AGE_MS = 10_000;

export interface QueueState {
  enabled: boolean;
  opensAtMs: number;
  opensAt: string;
  drawn: boolean;
  admittedThrough: number;
  admitPerMinute: number;
  /** The last place given out (0 before the draw). */
  lastPosition: number;
  /** Arrivals so far (refreshed every ARRIVALS_MAX_AGE_MS): spreads the first checks after opening. */
  arrivals: number;
  soldOut: boolean;
}

interface Entry {
  state: QueueState | null;
  readAt: number;
  arrivalsReadAt: number;
}

/**
 * The in-memory copy of each waiting room that status checks read: read from the database at most once
 * a second per room, whatever the number of visitors asking, so a million waiting visitors cost a map
 * look-up each, not a query. Ages by the app's clock, so a test that moves its clock sees the new state.
 * Per server (and per worker) by design, and only a cache: the queue's state is in the database, and
 * admission only moves forward, so a copy up to a second old delays a pass by at most that and never
 * admits anyone early (ADR 0026, "Behind several servers").
 */
export function queueStateOf(sqlite: Database.Database, eventId: string, nowMs: number): QueueState | null {
  const cache = caches(sqlite);
  const entry = cache.entries.get(eventId);
  if (entry && nowMs >= entry.readAt && nowMs - entry.readAt < QUEUE_STATE_MAX_AGE_MS) return entry.state;
  const s = cache.statements;
  const row = s.room.get(eventId) as
    | {
        enabled: number;
        opensAt: string;
        drawnAt: string | null;
        admittedThrough: number;
        admitPerMinute: number | null;
      }
    | undefined;
  if (!row) {
    // Unknown ids are remembered too (bounded), so made-up ids cannot turn checks into queries.
    if (cache.entries.size > 10_000) cache.entries.clear();
    cache.entries.set(eventId, { state: null, readAt: nowMs, arrivalsReadAt: nowMs });
    return null;
  }
  const countArrivals = arrivalsDue(entry, nowMs);
  const sold = s.soldOut.get(eventId) as { types: number; left: number | null };
  const state = stateOf(
    { ...row, enabled: row.enabled === 1 },
    (s.lastPosition.get(eventId) as number | null) ?? 0,
    countArrivals ? (s.arrivals.get(eventId) as number) : (entry?.state?.arrivals ?? 0),
    sold,
  );
  cache.entries.set(eventId, entryOf(state, entry, nowMs, countArrivals));
  return state;
}

/**
 * `queueStateOf` on PostgreSQL (DATABASE_URL): the same in-memory copy per server, refreshed at most
 * once a second per room, from the same reads sent to the pool. A promise, where SQLite's stays
 * synchronous on the rush's hot path.
 */
export async function queueStateOnPostgres(
  pool: pg.Pool,
  eventId: string,
  nowMs: number,
): Promise<QueueState | null> {
  const cache = pgCaches(pool);
  const entry = cache.get(eventId);
  if (entry && nowMs >= entry.readAt && nowMs - entry.readAt < QUEUE_STATE_MAX_AGE_MS) return entry.state;
  const { rows } = await pool.query<RoomRow & { enabled: boolean }>(PG_ROOM, [eventId]);
  const row = rows[0];
  if (!row) {
    if (cache.size > 10_000) cache.clear();
    cache.set(eventId, { state: null, readAt: nowMs, arrivalsReadAt: nowMs });
    return null;
  }
  const countArrivals = arrivalsDue(entry, nowMs);
  const [last, arrivals, sold] = await Promise.all([
    pool.query<{ n: number | null }>(
      'select max(position) as n from waiting_room_visitors where event_id = $1',
      [eventId],
    ),
    countArrivals
      ? pool.query<{ n: string }>('select count(*) as n from waiting_room_visitors where event_id = $1', [
          eventId,
        ])
      : undefined,
    pool.query<{ types: string; left: string | null }>(PG_SOLD_OUT, [eventId]),
  ]);
  const state = stateOf(
    row,
    last.rows[0]?.n ?? 0,
    arrivals ? Number(arrivals.rows[0]!.n) : (entry?.state?.arrivals ?? 0),
    {
      types: Number(sold.rows[0]!.types),
      left: sold.rows[0]!.left === null ? null : Number(sold.rows[0]!.left),
    },
  );
  cache.set(eventId, entryOf(state, entry, nowMs, countArrivals));
  return state;
}

interface RoomRow {
  opensAt: string;
  drawnAt: string | null;
  admittedThrough: number;
  admitPerMinute: number | null;
}

function arrivalsDue(entry: Entry | undefined, nowMs: number): boolean {
  return !entry?.state || nowMs - entry.arrivalsReadAt >= ARRIVALS_MAX_AGE_MS || nowMs < entry.arrivalsReadAt;
}

function stateOf(
  row: RoomRow & { enabled: boolean },
  lastPosition: number,
  arrivals: number,
  sold: { types: number; left: number | null },
): QueueState {
  return {
    enabled: row.enabled,
    opensAt: row.opensAt,
    opensAtMs: Date.parse(row.opensAt),
    drawn: row.drawnAt !== null,
    admittedThrough: row.admittedThrough,
    admitPerMinute: row.admitPerMinute ?? DEFAULT_ADMIT_PER_MINUTE,
    lastPosition,
    arrivals,
    soldOut: sold.types > 0 && (sold.left ?? 0) === 0,
  };
}

function entryOf(
  state: QueueState,
  before: Entry | undefined,
  nowMs: number,
  countedArrivals: boolean,
): Entry {
  return {
    state,
    readAt: nowMs,
    arrivalsReadAt: countedArrivals ? nowMs : (before?.arrivalsReadAt ?? nowMs),
  };
}

const pgCaches = oncePer((_pool: pg.Pool) => new Map<string, Entry>());

const PG_ROOM = `select enabled, opens_at as "opensAt", drawn_at as "drawnAt",
    admitted_through as "admittedThrough", admit_per_minute as "admitPerMinute"
  from waiting_rooms where event_id = $1`;

/** SQLite's sold-out count below in PostgreSQL's words (least for the two-argument min, booleans). */
const PG_SOLD_OUT = `select count(tt.id) as types, sum(least(tt.available_tickets, coalesce((select min(q.available)
     from quota_ticket_types qt join quotas q on q.id = qt.quota_id
     where qt.ticket_type_id = tt.id), tt.available_tickets))) as "left"
   from event_dates d
   join slots s on s.event_date_id = d.id and s.cancelled_at is null
   join ticket_types tt on tt.slot_id = s.id and tt.is_live and not tt.is_hidden
   where d.event_id = $1 and d.is_live`;

const caches = oncePer((sqlite: Database.Database) => ({
  entries: new Map<string, Entry>(),
  statements: {
    room: sqlite.prepare(
      `select enabled, opens_at as opensAt, drawn_at as drawnAt, admitted_through as admittedThrough,
         admit_per_minute as admitPerMinute
       from waiting_rooms where event_id = ?`,
    ),
    lastPosition: sqlite
      .prepare('select max(position) from waiting_room_visitors where event_id = ?')
      .pluck(),
    arrivals: sqlite.prepare('select count(*) from waiting_room_visitors where event_id = ?').pluck(),
    // Sold out: every live ticket type of the event's live, uncancelled slots has no seat left, of its
    // own or of its shared capacity (ADR 0039); hidden types, sold only with an access code, are not for
    // the room's crowd (ADR 0038).
    soldOut: sqlite.prepare(
      `select count(tt.id) as types, sum(min(tt.available_tickets, coalesce((select min(q.available)
         from quota_ticket_types qt join quotas q on q.id = qt.quota_id
         where qt.ticket_type_id = tt.id), tt.available_tickets))) as left
       from event_dates d
       join slots s on s.event_date_id = d.id and s.cancelled_at is null
       join ticket_types tt on tt.slot_id = s.id and tt.is_live = 1 and tt.is_hidden = 0
       where d.event_id = ? and d.is_live = 1`,
    ),
  },
}));
