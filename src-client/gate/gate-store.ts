import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { GateElsewhere, OfflineScan } from '../../shared/gate-schemas.ts';
import type { LocalTicket } from './decide-locally.ts';

export interface SlotMeta {
  slotId: string;
  eventId: string;
  ticketCursor: number;
  feedCursor: number;
  publicKey: string;
  slotStart: string;
  /** For the offline setup screen, which offers every slot downloaded on this device. */
  eventName?: string;
  syncedAt: string;
  /** The event's bookings in its other slots (absent from lists downloaded before they came with the sync). */
  elsewhere?: GateElsewhere[];
}

/** A scan decided offline, waiting to be sent (with where it was made). */
export interface QueuedScan extends OfflineScan {
  slotId: string;
  eventId: string;
  gate: string;
}

type StoredTicket = LocalTicket & { slotId: string };

interface GateDb extends DBSchema {
  tickets: { key: [string, string]; value: StoredTicket };
  meta: { key: string; value: SlotMeta };
  queue: { key: string; value: QueuedScan; indexes: { slot: string } };
  /** Scan ids whose people the device has already counted: the feed must not count them again. */
  applied: { key: string; value: { scanId: string; slotId: string } };
}

/**
 * The gate's device storage (IndexedDB): the slot's ticket list, its cursors and public key, the queue
 * of offline scans and the ids of scans already counted. Survives a reload and a dead network.
 */
export class GateStore {
  private constructor(private readonly db: IDBPDatabase<GateDb>) {}

  static async open(name = 'jalsa-gate'): Promise<GateStore> {
    const db = await openDB<GateDb>(name, 1, {
      upgrade(d) {
        d.createObjectStore('tickets', { keyPath: ['slotId', 'id'] });
        d.createObjectStore('meta', { keyPath: 'slotId' });
        d.createObjectStore('queue', { keyPath: 'scanId' }).createIndex('slot', 'slotId');
        d.createObjectStore('applied', { keyPath: 'scanId' });
      },
    });
    return new GateStore(db);
  }

  async loadSlot(slotId: string) {
    const range = IDBKeyRange.bound([slotId, ''], [slotId, '\uffff']);
    const [meta, tickets, queue] = await Promise.all([
      this.db.get('meta', slotId),
      this.db.getAll('tickets', range),
      this.db.getAllFromIndex('queue', 'slot', slotId),
    ]);
    const applied = (await this.db.getAll('applied')).filter((a) => a.slotId === slotId).map((a) => a.scanId);
    return { meta: meta ?? null, tickets: tickets as LocalTicket[], queue, applied };
  }

  /** Every slot whose list this device holds (what it can scan offline). */
  async listSlots(): Promise<SlotMeta[]> {
    return this.db.getAll('meta');
  }

  /** Writes tickets in one transaction (a 50,000-ticket slot is one write, not 50,000). */
  async saveTickets(slotId: string, tickets: LocalTicket[]): Promise<void> {
    if (tickets.length === 0) return;
    const tx = this.db.transaction('tickets', 'readwrite');
    for (const t of tickets) void tx.store.put({ ...t, slotId });
    await tx.done;
  }

  async saveMeta(meta: SlotMeta): Promise<void> {
    await this.db.put('meta', meta);
  }

  async enqueue(scan: QueuedScan): Promise<void> {
    const tx = this.db.transaction(['queue', 'applied'], 'readwrite');
    void tx.objectStore('queue').put(scan);
    void tx.objectStore('applied').put({ scanId: scan.scanId, slotId: scan.slotId });
    await tx.done;
  }

  async dequeue(scanIds: string[]): Promise<void> {
    const tx = this.db.transaction('queue', 'readwrite');
    for (const id of scanIds) void tx.store.delete(id);
    await tx.done;
  }

  async markApplied(slotId: string, scanId: string): Promise<void> {
    await this.db.put('applied', { scanId, slotId });
  }

  close() {
    this.db.close();
  }
}
