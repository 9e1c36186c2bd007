// A separate process holding its own SQLite connection, for the cross-process reservation race in
// test/integration/inventory.test.ts and bench/reserve.ts (cross-process race):
//   node --import tsx bench/reserve-worker.ts <db file> <json args>
import { openDatabase } from '../src-server/db/client.ts';
import { DomainError } from '../src-server/errors.ts';
import { reserveSeats } from '../src-server/services/inventory/holds.ts';

interface Args {
  eventId: string;
  dateId: string;
  slotId: string;
  ticketTypeId: string;
  userIds: string[];
  quantity: number;
  /** Epoch ms to start at, so every worker begins at once. */
  startAt: number;
}

const [file, json] = process.argv.slice(2);
const args = JSON.parse(json!) as Args;
const { db, close } = openDatabase(file!);
while (Date.now() < args.startAt) await new Promise((r) => setTimeout(r, 1));

let held = 0;
let refused = 0;
const latencies: number[] = [];
for (const userId of args.userIds) {
  const started = performance.now();
  try {
    reserveSeats(
      db,
      {
        userId,
        eventId: args.eventId,
        eventDateId: args.dateId,
        slotId: args.slotId,
        lines: [{ ticketTypeId: args.ticketTypeId, quantity: args.quantity }],
        details: { name: 'Race', email: 'race@example.com', phone: '9876543210', state: 'Goa' },
        userCity: null,
        platformFeeRate: null,
      },
      new Date(),
    );
    held += 1;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    refused += 1;
  }
  latencies.push(performance.now() - started);
}
close();
process.stdout.write(JSON.stringify({ held, refused, latencies }));
