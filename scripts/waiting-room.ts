// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../src-server/process/require-supported-node.ts';
import { parseArgs } from 'node:util';
import { DEFAULT_ADMIT_PER_MINUTE, WaitingRoomSettingsInput } from '../shared/waiting-room.ts';
import { databaseFile, openDatabase } from '../src-server/db/client.ts';
import { loadEnv } from '../src-server/env.ts';
import {
  getWaitingRoomSettings,
  updateWaitingRoomSettings,
} from '../src-server/services/waiting-room/waiting-room-settings.ts';

// `npm run waiting-room -- <eventId> --on --opens-at 2026-12-05T10:00:00+05:30 [--rate 500]` (or `--off`)
// sets an event's waiting room in DATA_DIR's database, as the event editor does (also while the server
// runs: one short transaction, and status checks read the room again within a second). Without --on or
// --off it prints the room's settings and queue.
const USAGE =
  'Usage: npm run waiting-room -- <eventId> [--on --opens-at <ISO time> [--rate <per minute>] | --off]';
let parsed: ReturnType<typeof parse>;
try {
  parsed = parse();
} catch {
  console.error(USAGE);
  process.exit(2);
}
const { positionals, values } = parsed;
const [eventId] = positionals;
if (!eventId || positionals.length > 1 || (values.on && values.off)) {
  console.error(USAGE);
  process.exit(2);
}

const env = loadEnv();
const database = openDatabase(databaseFile(env.DATA_DIR));
try {
  const exists = database.sqlite.prepare('select 1 from events where id = ?').get(eventId);
  if (!exists) {
    console.error(`No event with the id ${eventId}.`);
    process.exit(1);
  }
  const current = await getWaitingRoomSettings(database.db, eventId);
  if (values.on || values.off) {
    const input = WaitingRoomSettingsInput.safeParse({
      eventId,
      enabled: !!values.on,
      opensAt: values['opens-at'] ?? current.opensAt ?? '',
      admitPerMinute: values.rate === undefined ? current.admitPerMinute : Number(values.rate),
    });
    if (!input.success) {
      console.error(input.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('\n'));
      process.exit(2);
    }
    const { eventId: _id, ...settings } = input.data;
    const saved = await updateWaitingRoomSettings(database.db, eventId, settings, new Date());
    print(saved);
  } else {
    print(current);
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  database.close();
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      on: { type: 'boolean' },
      off: { type: 'boolean' },
      'opens-at': { type: 'string' },
      rate: { type: 'string' },
    },
  });
}

function print(room: Awaited<ReturnType<typeof getWaitingRoomSettings>>) {
  console.log(
    room.enabled
      ? `Waiting room on: opens ${room.opensAt}, admits ${room.admitPerMinute ?? `${DEFAULT_ADMIT_PER_MINUTE} (default)`} a minute.`
      : 'Waiting room off.',
  );
  console.log(
    `${room.visitors} in the room${room.drawnAt ? `; drawn ${room.drawnAt}, ${room.admittedThrough} admitted` : ''}.`,
  );
}
