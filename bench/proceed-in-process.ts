import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Server CPU per Proceed without the network: the real app (createApp over composeDeps, a database file
 * in WAL mode with checkpoints off the request path, as runServer opens it) called through its fetch
 * handler with 64 Proceeds in flight, `process.cpuUsage` per Proceed. Far less noisy than the HTTP
 * flash sale on a shared machine, and it runs against any checkout of the app, so two builds can be
 * compared in turn: `cd <checkout> && npx tsx <this file> [plain|box|boxonly] [rounds] [per round]`
 * (`box`: plain and code + quota rounds in turn; the code + quota event needs bench/lib/fixtures.ts's
 * addBoxOffice, i.e. issue 40 or later). Each buyer is fresh (30 000 of them), so no Proceed replaces a
 * hold. The app's request log goes to stdout as in production: redirect it, the result is the last line.
 */
const ROOT = process.cwd();
const mode = process.argv[2] ?? 'plain';
const rounds = Number(process.argv[3] ?? 3);
const perRound = Number(process.argv[4] ?? 4000);
const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-proceed-'));
Object.assign(process.env, {
  NODE_ENV: 'production',
  PUBLIC_URL: 'http://127.0.0.1:9',
  DATA_DIR: dataDir,
  ALLOW_PAYMENT_SIMULATOR: 'true',
  LOG_LEVEL: 'info',
  // As bench/lib/server.ts: one address for every buyer, and buyers who Proceed often.
  HOLD_SEATS_PER_ADDRESS: '0',
  HOLDS_PER_SLOT_PER_HOUR: '1000000',
});

// biome-ignore lint/suspicious/noExplicitAny: the modules of whichever checkout runs this
type Module = Record<string, any>;
const load = (file: string): Promise<Module> => import(path.join(ROOT, file));
const { loadEnv } = await load('src-server/env.ts');
const { createLogger } = await load('src-server/logger.ts');
const { createApp } = await load('src-server/app.ts');
const { composeDeps } = await load('src-server/compose-deps.ts');
const { openDatabase, databaseFile } = await load('src-server/db/client.ts');
const { checkpointOffTheRequestPath } = await load('src-server/db/checkpoints.ts');
const { appSecretFor } = await load('src-server/app-secret.ts');
const { systemClock } = await load('src-server/deps.ts');
const fixtures = await load('bench/lib/fixtures.ts');

const env = loadEnv(process.env);
const database = openDatabase(databaseFile(dataDir));
const deps = composeDeps({
  db: database.db,
  sqlite: database.sqlite,
  env,
  logger: createLogger(env.LOG_LEVEL),
  clock: systemClock,
  // Awaited: a promise since the app secret is read on either engine; older checkouts answer at once.
  appSecret: await appSecretFor(database.db, { configured: env.APP_SECRET, dataDir, now: systemClock.now() }),
  clientDir: undefined,
});
checkpointOffTheRequestPath(database.sqlite);
const app = createApp(deps);

const cookies: string[] = fixtures.createBuyers(database.db, 30_000, 'proceed');
const plain = fixtures.createOnSaleEvent(database.db, 'Plain', [{ name: 'General', seats: 10_000_000 }]);
const box =
  mode === 'plain'
    ? null
    : await (async () => {
        const event = fixtures.createOnSaleEvent(database.db, 'Box office', [
          { name: 'General', seats: 10_000_000 },
        ]);
        const office = await fixtures.addBoxOffice(database.db, event, {
          quotaCapacity: 1_000_000,
          maxUses: 1_000_000,
          maxUsesPerBuyer: 1,
        });
        return { event, code: office.code as string };
      })();

let nextBuyer = 0;
/** `count` Proceeds, 64 in flight; CPU µs per Proceed. */
async function proceeds(body: string, count: number): Promise<number> {
  let started = 0;
  let refused = 0;
  const connection = async () => {
    while (started < count) {
      started += 1;
      const answer = await app.fetch(
        new Request('http://127.0.0.1/trpc/payments.start', {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'accept-encoding': 'gzip, deflate, br, zstd',
            cookie: cookies[nextBuyer++ % cookies.length]!,
          },
        }),
      );
      await answer.arrayBuffer();
      if (answer.status !== 200) refused += 1;
    }
  };
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: 64 }, connection));
  const used = process.cpuUsage(before);
  if (refused > 0) throw new Error(`${refused} Proceeds refused`);
  return Math.round((used.user + used.system) / count);
}

const plainBody = fixtures.startBody(plain, plain.ticketTypes[0].id);
const boxBody = box && fixtures.startBody(box.event, box.event.ticketTypes[0].id, box.code);
// Warm-up (JIT, page cache), then the measured rounds in turn.
if (mode !== 'boxonly') await proceeds(plainBody, 3000);
if (boxBody) await proceeds(boxBody, 3000);
const result: { plain: number[]; codeAndQuota: number[] } = { plain: [], codeAndQuota: [] };
for (let round = 0; round < rounds; round += 1) {
  if (mode !== 'boxonly') result.plain.push(await proceeds(plainBody, perRound));
  if (boxBody) result.codeAndQuota.push(await proceeds(boxBody, perRound));
}
console.log(JSON.stringify({ checkout: ROOT, mode, ...result }));
process.exit(0);
