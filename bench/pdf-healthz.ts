import { databaseFile, openDatabase } from '../src-server/db/client.ts';
import { insertBookingWithEvent } from '../test/helpers/bookings.ts';
import { createBuyers } from './lib/fixtures.ts';
import { startBenchServer } from './lib/server.ts';

/**
 * Issue 18: how long `/healthz` takes to answer while ticket PDFs download at once. Before the fix a
 * PDF was laid out on the event loop, so every other request waited behind it (a 50,000-character
 * stored name took ~2 s per PDF). For each holder name: `/healthz` alone, then again while `pdfs`
 * downloads of the owner's PDF run concurrently. Timing lives here, never in a test.
 */
export async function runPdfHealthz(options: { pdfs: number; probes: number }) {
  const server = await startBenchServer();
  const rows: Record<string, string | number>[] = [];
  try {
    const database = openDatabase(databaseFile(server.dataDir));
    const [cookie] = createBuyers(database.db, 1, 'pdf');
    const userId = database.sqlite
      .prepare('select id from users where email like ?')
      .pluck()
      .get('pdf-%') as string;
    const names = { 'short name': 'Asha Rao', '50,000-character name': 'q'.repeat(50_000) };
    for (const [label, userName] of Object.entries(names)) {
      const { bookingId } = insertBookingWithEvent(database.db, new Date(), { userId, userName });
      const url = `${server.baseURL}/api/tickets/${bookingId}.pdf`;
      // One download first, so the first one's start-up (a worker thread, fonts) is not counted.
      await download(url, cookie!);
      const idle = await probeHealth(server.baseURL, options.probes);
      const started = performance.now();
      let done = false;
      const downloads = Promise.all(
        Array.from({ length: options.pdfs }, () => download(url, cookie!)),
      ).finally(() => {
        done = true;
      });
      const busy: number[] = [];
      while (!done) busy.push(...(await probeHealth(server.baseURL, 1)));
      const statuses = await downloads;
      const allPdfsMs = performance.now() - started;
      rows.push({
        holder: label,
        'healthz idle p50 ms': round(percentile(idle, 50)),
        'healthz during PDFs p50 ms': round(percentile(busy, 50)),
        'p99 ms': round(percentile(busy, 99)),
        'max ms': round(Math.max(...busy)),
        probes: busy.length,
        [`${options.pdfs} PDFs ms`]: Math.round(allPdfsMs),
        'non-200': statuses.filter((s) => s !== 200).length,
      });
    }
    database.close();
  } finally {
    await server.stop();
  }
  console.table(rows);
  return rows;
}

async function download(url: string, cookie: string): Promise<number> {
  const res = await fetch(url, { headers: { cookie } });
  await res.arrayBuffer();
  return res.status;
}

async function probeHealth(baseURL: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const t0 = performance.now();
    const res = await fetch(`${baseURL}/healthz`);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  return times;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const round = (ms: number) => Math.round(ms * 10) / 10;
