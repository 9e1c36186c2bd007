import { type GateListTicket, uploadBatch } from '../../shared/gate-schemas.ts';
import { mobileDigitsSearchedBy } from '../../shared/indian-mobile.ts';
import { gateTicketId, parseTicketToken } from '../../shared/ticket-token-format.ts';
import type { RouterInputs, RouterOutputs } from '../lib/trpc.ts';
import { decideLocally, type Elsewhere, isStaleGeneration, type LocalTicket } from './decide-locally.ts';
import type { GateStore, QueuedScan, SlotMeta } from './gate-store.ts';
import { verifyEd25519Token } from './verify-ticket.ts';

type Sync = RouterOutputs['gate']['sync'];
type ScanResult = RouterOutputs['gate']['scan'];

/** The server, as the engine needs it; a call that could not reach it throws `Unreachable`. */
export interface GateApi {
  sync(input: RouterInputs['gate']['sync']): Promise<Sync>;
  scan(input: RouterInputs['gate']['scan']): Promise<ScanResult>;
  upload(input: RouterInputs['gate']['upload']): Promise<RouterOutputs['gate']['upload']>;
  undo(input: RouterInputs['gate']['undo']): Promise<RouterOutputs['gate']['undo']>;
}

export class Unreachable extends Error {}

export interface GatePlace {
  eventId: string;
  slotId: string;
  gate: string;
  deviceId: string;
  eventName?: string;
}

/** What the screen shows after a scan. */
export type Shown =
  | { kind: 'admit'; scanId: string; persons: number; ticket: LocalTicket; offline: boolean; message: string }
  | { kind: 'ask'; remaining: number; ticket: LocalTicket; code: Code; scanId: string }
  | { kind: 'refuse'; scanId: string; message: string; ticket: LocalTicket | null; offline: boolean };

export type Code = { token: string } | { bookingId: string };

export interface EngineState {
  online: boolean;
  ready: boolean;
  tickets: number;
  queued: number;
  counters: Sync['counters'] | null;
  doubleEntries: Sync['doubleEntries'];
  syncedAt: string | null;
}

const fromList = (r: GateListTicket): LocalTicket => ({
  id: r[0],
  name: r[1],
  type: r[2],
  allowed: r[3],
  admitted: r[4],
  cancelled: r[5] === 1,
  ...(r[6] ? { phoneEnd: r[6] } : {}),
  ...(r[7] ? { generation: r[7] } : {}),
  ...(r[8]?.length ? { addOns: r[8] } : {}),
});

/**
 * The gate device's brain (docs/decisions/0022): online, the server decides every scan (and the
 * conditional update guarantees no over-admission); when the server cannot be reached, the device decides
 * from its ticket list, its own admissions and the feed, queues the scan with its unique id and sends it
 * when the network returns. Every few seconds it uploads the queue and pulls deltas and others' admissions.
 */
export class GateEngine {
  private tickets = new Map<string, LocalTicket>();
  /** Booking id → start of the other slot of the event it is for. */
  private elsewhere = new Map<string, string>();
  private applied = new Set<string>();
  private queue: QueuedScan[] = [];
  private meta: SlotMeta | null = null;
  private listeners = new Set<() => void>();
  private syncing: Promise<void> | null = null;
  state: EngineState = {
    online: true,
    ready: false,
    tickets: 0,
    queued: 0,
    counters: null,
    doubleEntries: [],
    syncedAt: null,
  };

  constructor(
    private readonly store: GateStore,
    private readonly api: GateApi,
    readonly place: GatePlace,
    private readonly now: () => Date = () => new Date(),
    private readonly newId: () => string = () => crypto.randomUUID(),
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<EngineState>) {
    this.state = { ...this.state, ...patch, tickets: this.tickets.size, queued: this.queue.length };
    for (const l of this.listeners) l();
  }

  /** Loads what the device kept, then syncs (a full download the first time). */
  async start(): Promise<void> {
    const saved = await this.store.loadSlot(this.place.slotId);
    this.meta = saved.meta;
    for (const t of saved.tickets) this.tickets.set(t.id, t);
    this.addElsewhere(saved.meta?.elsewhere ?? []);
    for (const id of saved.applied) this.applied.add(id);
    this.queue = saved.queue;
    this.set({ ready: this.meta !== null, syncedAt: this.meta?.syncedAt ?? null });
    await this.sync();
  }

  ticket(bookingId: string): LocalTicket | null {
    return this.tickets.get(bookingId) ?? null;
  }

  /** Uploads queued scans, then pulls the delta. Never throws: unreachable just marks the device offline. */
  sync(): Promise<void> {
    if (!this.syncing)
      this.syncing = this.syncOnce().finally(() => {
        this.syncing = null;
      });
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        // A prefix within the upload's bounds (per upload, per ticket): the rest goes in the next call.
        const batch = uploadBatch(this.queue);
        await this.api.upload({
          eventId: this.place.eventId,
          slotId: this.place.slotId,
          gate: batch[0]?.gate ?? this.place.gate,
          deviceId: this.place.deviceId,
          scans: batch.map(({ slotId: _s, eventId: _e, gate: _g, ...scan }) => scan),
        });
        await this.store.dequeue(batch.map((s) => s.scanId));
        this.queue = this.queue.slice(batch.length);
        this.set({});
      }
      let more = true;
      while (more) {
        const answer = await this.api.sync({
          eventId: this.place.eventId,
          slotId: this.place.slotId,
          // A list kept from before the sync carried the event's other slots is downloaded again once.
          ticketCursor: this.meta?.elsewhere ? this.meta.ticketCursor : 0,
          feedCursor: this.meta?.feedCursor ?? 0,
        });
        await this.apply(answer);
        more = answer.more;
      }
      this.set({ online: true });
    } catch (error) {
      if (error instanceof Unreachable) this.set({ online: false });
      else throw error;
    }
  }

  /** The feed first (others' admissions), then the tickets (new or cancelled), whose counts include the feed. */
  private async apply(answer: Sync) {
    const changed = new Map<string, LocalTicket>();
    for (const [, scanId, bookingId, persons, gate, at] of answer.feed) {
      if (this.applied.has(scanId)) continue;
      const t = this.tickets.get(bookingId);
      if (!t) continue;
      const next = { ...t, admitted: Math.max(0, t.admitted + persons) };
      if (persons > 0) Object.assign(next, { lastGate: gate, lastAt: at });
      this.tickets.set(bookingId, next);
      changed.set(bookingId, next);
    }
    for (const row of answer.tickets) {
      const t = fromList(row);
      const known = this.tickets.get(t.id);
      // A delta resends the slot's cancelled tickets every time: nothing to store when one is unchanged.
      if (known && (Object.keys(t) as (keyof LocalTicket)[]).every((k) => known[k] === t[k])) continue;
      const next = known ? { ...known, ...t } : t;
      this.tickets.set(t.id, next);
      changed.set(t.id, next);
    }
    await this.store.saveTickets(this.place.slotId, [...changed.values()]);
    this.addElsewhere(answer.elsewhere);
    this.meta = {
      slotId: this.place.slotId,
      eventId: this.place.eventId,
      ticketCursor: answer.ticketCursor,
      feedCursor: answer.feedCursor,
      publicKey: answer.publicKey,
      slotStart: answer.slot.start,
      ...(this.place.eventName ? { eventName: this.place.eventName } : {}),
      syncedAt: this.now().toISOString(),
      elsewhere: this.elsewhereGrouped(answer.elsewhere.length > 0),
    };
    await this.store.saveMeta(this.meta);
    this.set({
      ready: true,
      counters: answer.counters,
      doubleEntries: answer.doubleEntries,
      syncedAt: this.meta.syncedAt,
    });
  }

  private addElsewhere(groups: NonNullable<SlotMeta['elsewhere']>) {
    for (const [start, ids] of groups) for (const id of ids) this.elsewhere.set(id, start);
  }

  /** What the meta keeps of the other slots: regrouped only when a sync brought new ones. */
  private elsewhereGrouped(changed: boolean): NonNullable<SlotMeta['elsewhere']> {
    if (!changed && this.meta?.elsewhere) return this.meta.elsewhere;
    const bySlot = new Map<string, string[]>();
    for (const [id, start] of this.elsewhere) {
      const ids = bySlot.get(start);
      if (ids) ids.push(id);
      else bySlot.set(start, [id]);
    }
    return [...bySlot];
  }

  /** Where a booking not on this slot's list belongs, as far as the device knows. */
  private whereElse(bookingId: string | null, verified: boolean): Elsewhere {
    const start = bookingId ? this.elsewhere.get(bookingId) : undefined;
    if (start) return { slotStart: start };
    // Only a verified signature proves a real booking; with the event's whole map, it is another event's.
    return verified && this.meta?.elsewhere ? 'other-event' : 'unknown';
  }

  /**
   * One scan (a QR token, or a booking chosen by manual look-up). `persons` is given after the screen
   * asked how many; `scanId` then repeats the question's id.
   */
  async scan(code: Code, persons?: number, scanId = this.newId()): Promise<Shown> {
    const token = 'token' in code ? parseTicketToken(code.token.trim()) : null;
    // An attendee's QR (ADR 0046) is its own ticket on the list, under the gate ticket id.
    const bookingId =
      'bookingId' in code ? code.bookingId : token ? gateTicketId(token.bookingId, token.attendee) : null;
    const known = bookingId ? this.ticket(bookingId) : null;
    // Ask how many from the list at once (no round trip); the server re-checks when it admits. A group
    // ticket asks even for its last entry (never consumed without a tap). Not for a QR given away since:
    // the server (or the offline decision) refuses it.
    if (
      persons === undefined &&
      known &&
      !known.cancelled &&
      !isStaleGeneration(known, token?.generation) &&
      known.allowed > 1 &&
      known.allowed - known.admitted >= 1
    )
      return { kind: 'ask', remaining: known.allowed - known.admitted, ticket: known, code, scanId };

    if (this.state.online || !this.meta) {
      try {
        const answer = await this.api.scan({
          eventId: this.place.eventId,
          slotId: this.place.slotId,
          gate: this.place.gate,
          deviceId: this.place.deviceId,
          scanId,
          persons,
          ...code,
        });
        this.set({ online: true });
        return await this.fromServer(answer, code);
      } catch (error) {
        if (!(error instanceof Unreachable)) throw error;
        this.set({ online: false });
        void this.sync();
      }
    }
    return this.scanOffline(code, persons, scanId);
  }

  private async fromServer(answer: ScanResult, code: Code): Promise<Shown> {
    const local = (t: NonNullable<ScanResult['ticket']>, extra: Partial<LocalTicket> = {}): LocalTicket => {
      const id = t.ticketId ?? t.bookingId;
      const known = this.tickets.get(id);
      const next: LocalTicket = {
        ...(known ?? { cancelled: false }),
        id,
        name: t.holderName,
        type: t.typeName,
        allowed: t.allowed,
        admitted: t.admitted,
        ...extra,
      };
      if (known || answer.outcome === 'admit') this.tickets.set(id, next);
      return next;
    };
    if (answer.outcome === 'ask')
      return {
        kind: 'ask',
        remaining: answer.remaining,
        ticket: local(answer.ticket),
        code,
        scanId: answer.scanId,
      };
    if (answer.outcome === 'admit') {
      const ticket = local(answer.ticket, { lastGate: this.place.gate, lastAt: this.now().toISOString() });
      this.applied.add(answer.scanId);
      await this.store.markApplied(this.place.slotId, answer.scanId);
      await this.store.saveTickets(this.place.slotId, [ticket]);
      this.bump(answer.persons);
      return {
        kind: 'admit',
        scanId: answer.scanId,
        persons: answer.persons,
        ticket,
        offline: false,
        message: answer.message,
      };
    }
    return {
      kind: 'refuse',
      scanId: answer.scanId,
      message: answer.message,
      ticket: answer.ticket ? local(answer.ticket) : null,
      offline: false,
    };
  }

  private async scanOffline(code: Code, persons: number | undefined, scanId: string): Promise<Shown> {
    const token = 'token' in code ? parseTicketToken(code.token.trim()) : null;
    // An attendee's QR (ADR 0046) is its own ticket on the list, under the gate ticket id.
    const bookingId =
      'bookingId' in code ? code.bookingId : token ? gateTicketId(token.bookingId, token.attendee) : null;
    const ticket = bookingId ? this.ticket(bookingId) : null;
    let trusted = 'bookingId' in code;
    if (token?.kind === 'ed25519' && this.meta)
      trusted = await verifyEd25519Token(this.meta.publicKey, token);
    // A first-release (HMAC) token cannot be checked on the device: trusted only if it names a booking of
    // the event (admitted from this slot's list, refused naming its slot otherwise).
    if (token?.kind === 'legacy')
      trusted = ticket !== null || (bookingId !== null && this.elsewhere.has(bookingId));
    const elsewhere = ticket
      ? undefined
      : this.whereElse(token?.bookingId ?? bookingId, token?.kind === 'ed25519' && trusted);
    const decision = decideLocally({
      trusted,
      ticket,
      persons,
      generation: token?.generation,
      ...(elsewhere ? { elsewhere } : {}),
    });
    if (decision.outcome === 'ask')
      return { kind: 'ask', remaining: decision.remaining, ticket: decision.ticket, code, scanId };
    const at = this.now().toISOString();
    const queued: QueuedScan = {
      scanId,
      ...('token' in code ? { token: code.token } : { bookingId: code.bookingId }),
      decision: decision.outcome,
      persons: decision.outcome === 'admit' ? decision.persons : 0,
      ...(decision.outcome === 'refuse' ? { reason: decision.message } : {}),
      scannedAt: at,
      slotId: this.place.slotId,
      eventId: this.place.eventId,
      gate: this.place.gate,
    };
    this.queue.push(queued);
    await this.store.enqueue(queued);
    this.applied.add(scanId);
    if (decision.outcome === 'refuse') {
      this.set({});
      return { kind: 'refuse', scanId, message: decision.message, ticket: decision.ticket, offline: true };
    }
    const next = {
      ...decision.ticket,
      admitted: decision.ticket.admitted + decision.persons,
      lastGate: this.place.gate,
      lastAt: at,
    };
    this.tickets.set(next.id, next);
    await this.store.saveTickets(this.place.slotId, [next]);
    this.bump(decision.persons);
    return {
      kind: 'admit',
      scanId,
      persons: decision.persons,
      ticket: next,
      offline: true,
      message: `ADMIT ${decision.persons}: ${next.admitted} of ${next.allowed} in`,
    };
  }

  /** The screen's counter moves at once; the next sync brings the server's figures. */
  private bump(persons: number) {
    const c = this.state.counters;
    if (c) this.set({ counters: { ...c, admitted: c.admitted + persons } });
    else this.set({});
  }

  /** Takes the last admission back (needs the network: the server's count is what it corrects). */
  async undo(scanId: string, reason: string) {
    const queuedAt = this.queue.findIndex((q) => q.scanId === scanId);
    if (queuedAt >= 0) await this.sync();
    const answer = await this.api.undo({
      eventId: this.place.eventId,
      slotId: this.place.slotId,
      gate: this.place.gate,
      deviceId: this.place.deviceId,
      undoId: this.newId(),
      scanId,
      reason,
    });
    const known = this.tickets.get(answer.ticket.ticketId ?? answer.ticket.bookingId);
    if (known) {
      const next = { ...known, admitted: answer.ticket.admitted };
      this.tickets.set(next.id, next);
      await this.store.saveTickets(this.place.slotId, [next]);
    }
    void this.sync();
    return answer;
  }

  /**
   * Local look-up by booking id, name or mobile. The list holds a mobile's last four digits only, so a
   * number typed in full (or its end) matches the tickets whose mobile ends the same way.
   */
  lookUpLocally(query: string, limit = 20): LocalTicket[] {
    const q = query.trim().toLowerCase();
    if (q.length < 2) return [];
    const digits = mobileDigitsSearchedBy(q);
    const lastFour = digits.length >= 4 ? digits.slice(-4) : null;
    const out: LocalTicket[] = [];
    for (const t of this.tickets.values()) {
      if (
        t.id.toLowerCase().startsWith(q) ||
        t.name.toLowerCase().includes(q) ||
        (lastFour !== null && t.phoneEnd === lastFour)
      )
        out.push(t);
      if (out.length >= limit) break;
    }
    return out;
  }
}
