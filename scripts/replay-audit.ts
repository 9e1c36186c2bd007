import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * `npx tsx scripts/replay-audit.ts [work tree]`: replays the outside audit's attacks (issue 18) over
 * plain HTTP against a real server process of a work tree (this one by default; give an older checkout
 * to measure before a fix) on a fresh database, and prints what each got. The figures in
 * docs/security.md come from it. TRUST_PROXY is on so that each scenario can speak from its own client
 * address through X-Forwarded-For; each request opens its own connection.
 */
const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-replay-'));
const clientDir = mkdtempSync(path.join(tmpdir(), 'jalsa-replay-client-'));
writeFileSync(
  path.join(clientDir, 'index.html'),
  '<!doctype html><html><head><title>Jalsa</title></head><body><div id="root"></div></body></html>',
);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['--import', 'tsx', 'src-server/index.ts'], {
  cwd: root,
  stdio: 'ignore',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CLIENT_DIR: clientDir,
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
    TRUST_PROXY: 'true',
  },
});

const results: Record<string, unknown> = {};
/** Client addresses handed out so far (`client()`). */
let clients = 0;
try {
  await waitForHealth();
  await replaySignInAttacks();
  await replayMailToStrangers();
  await replaySmallOnes();
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} finally {
  server.kill('SIGTERM');
  rmSync(clientDir, { recursive: true, force: true });
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}

async function replaySignInAttacks() {
  {
    const email = await signUp(client());
    const started = performance.now();
    const answer = await signInBatch(client(), guesses(email, 400, 'right-pass'));
    results['one batch of 400 sign-ins on one account, right password last'] = {
      ...answer.summary,
      signedIn: answer.statuses.at(-1) === 200,
      ms: Math.round(performance.now() - started),
    };
  }
  {
    const email = await signUp(client());
    const ip = client();
    const batches = await Promise.all(
      Array.from({ length: 40 }, (_, b) =>
        signInBatch(ip, guesses(email, 10, b === 39 ? 'right-pass' : null)),
      ),
    );
    const statuses = batches.flatMap((b) => b.statuses);
    results['40 batches of 10 at once on one account, right password last'] = {
      answers: tally(statuses),
      signedIn: statuses.at(-1) === 200,
    };
  }
  {
    const calls = Array.from({ length: 400 }, (_, i) => ({
      email: `someone${i}@example.com`,
      password: 'guess-pass',
    }));
    results['one batch of 400 sign-ins over 400 addresses from one client'] = (
      await signInBatch(client(), calls)
    ).summary;
    const ip = client();
    const batches = await Promise.all(
      Array.from({ length: 40 }, (_, b) => signInBatch(ip, calls.slice(b * 10, b * 10 + 10))),
    );
    results['40 batches of 10 at once over 400 addresses from one client'] = tally(
      batches.flatMap((b) => b.statuses),
    );
  }
  {
    const emails = await Promise.all(Array.from({ length: 4 }, () => signUp(client())));
    const started = performance.now();
    const batches = await Promise.all(
      emails.map((email) => signInBatch(client(), guesses(email, 300, null))),
    );
    const statuses = batches.flatMap((b) => b.statuses);
    results['4 batches of 300 at once on 4 accounts'] = {
      httpStatuses: batches.map((b) => b.summary.httpStatus),
      passwordsChecked: statuses.filter((s) => s === 401 || s === 200).length,
      ms: Math.round(performance.now() - started),
    };
  }
  {
    const email = await signUp(client());
    const ip = client();
    const answers = await Promise.all(
      guesses(email, 60, 'right-pass').map((input) => post('/trpc/auth.signIn', input, ip)),
    );
    results['60 sign-ins at once on separate connections, one account'] = {
      answers: tally(answers.map((a) => a.status)),
      signedIn: answers.at(-1)?.status === 200,
    };
  }
  {
    const victim = await signUp(client());
    const attacker = await signUp(client());
    const victimIp = client();
    const quietStart = performance.now();
    await post('/trpc/auth.signIn', { email: victim, password: 'right-pass' }, victimIp);
    const quietMs = Math.round(performance.now() - quietStart);
    const attack = signInBatch(client(), guesses(attacker, 700, null));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const busyStart = performance.now();
    const during = await post('/trpc/auth.signIn', { email: victim, password: 'right-pass' }, victimIp);
    const busyMs = Math.round(performance.now() - busyStart);
    results["another person's sign-in while one client sends a 700-call batch"] = {
      quietMs,
      duringMs: busyMs,
      duringStatus: during.status,
      batchHttpStatus: (await attack).summary.httpStatus,
    };
  }
}

async function replayMailToStrangers() {
  const bait = 'Claim your refund at evil.example';
  const ip = client();
  const signUps = [];
  for (let i = 0; i < 30; i++) {
    const input = signUpInput(`stranger${i}@example.com`, bait);
    signUps.push((await post('/trpc/auth.signUp', input, ip)).status);
  }
  results['30 sign-ups with a bait name from one client'] = tally(signUps);
  const resets = [];
  for (let i = 0; i < 30; i++) {
    resets.push(
      (await post('/trpc/auth.requestPasswordReset', { email: `stranger${i % 3}@example.com` }, ip)).status,
    );
  }
  results['30 reset requests from one client'] = tally(resets);
  const db = new Database(path.join(dataDir, 'jalsa.db'), { readonly: true });
  try {
    const count = (sql: string) => db.prepare(sql).pluck().get();
    results['mails queued to those strangers'] = count(
      `select count(*) from outbox where "to" like 'stranger%'`,
    );
    results['of which carry the bait'] = count(
      `select count(*) from outbox where "to" like 'stranger%' and (text like '%evil.example%' or html like '%evil.example%')`,
    );
  } finally {
    db.close();
  }
}

async function replaySmallOnes() {
  for (const pathname of ['/events/%', '/trpc/%', '/event/%ff']) {
    results[`GET ${pathname}`] = (await get(pathname, {})).status;
  }
  results['GET /dev/mail with Host: evil.example'] = (
    await get('/dev/mail', { host: 'evil.example' })
  ).status;
  const ip = client();
  const orders = [];
  for (let i = 0; i < 50; i++) {
    orders.push((await post('/api/create-order', { amount: 1_000_000, currency: 'INR' }, ip)).status);
  }
  results['50 anonymous test orders from one client'] = tally(orders);
}

/** A fresh client address for the next scenario (X-Forwarded-For). */
function client(): string {
  clients += 1;
  return `198.51.${Math.floor(clients / 250)}.${(clients % 250) + 1}`;
}

function guesses(email: string, count: number, rightPasswordLast: string | null) {
  return Array.from({ length: count }, (_, i) => ({
    email,
    password: rightPasswordLast && i === count - 1 ? rightPasswordLast : `guess-${i}`,
  }));
}

function signUpInput(email: string, name = 'Asha Verma') {
  return {
    name,
    email,
    mobile: '',
    password: 'right-pass',
    confirmPassword: 'right-pass',
    acceptTerms: true,
  };
}

async function signUp(ip: string): Promise<string> {
  const email = `person${clients}@example.com`;
  const res = await post('/trpc/auth.signUp', signUpInput(email), ip);
  if (res.status !== 200) throw new Error(`sign-up answered ${res.status}: ${res.text}`);
  return email;
}

/** One tRPC batch of sign-ins; per-call statuses (empty when the whole batch was refused). */
async function signInBatch(ip: string, calls: { email: string; password: string }[]) {
  const paths = calls.map(() => 'auth.signIn').join(',');
  const res = await post(`/trpc/${paths}?batch=1`, Object.fromEntries(calls.map((c, i) => [i, c])), ip);
  let items: unknown;
  try {
    items = JSON.parse(res.text);
  } catch {
    items = null;
  }
  const statuses = Array.isArray(items)
    ? items.map((item: { result?: unknown; error?: { data?: { httpStatus?: number } } }) =>
        item.result ? 200 : (item.error?.data?.httpStatus ?? 0),
      )
    : [];
  return {
    statuses,
    summary: Array.isArray(items)
      ? { httpStatus: res.status, answers: tally(statuses) }
      : { httpStatus: res.status, body: res.text.slice(0, 120) },
  };
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

function post(pathname: string, body: unknown, ip: string) {
  const data = JSON.stringify(body);
  return send(
    'POST',
    pathname,
    {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(data)),
      'x-forwarded-for': ip,
    },
    data,
  );
}

function get(pathname: string, headers: Record<string, string>) {
  return send('GET', pathname, headers);
}

/** One request on its own connection (no keep-alive), as separate clients would send it. */
function send(
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function waitForHealth() {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await get('/healthz', {})).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not start');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
