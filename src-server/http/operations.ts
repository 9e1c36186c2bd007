import { timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { measureSite, type SiteFigures, unwellParts } from '../services/operations/site-health.ts';

/**
 * What an operator's tools ask (docs/operations.md, "Seeing trouble coming"; issue 37):
 *
 * - `GET /readyz`: 200 `{"status":"ready"}`, or 503 naming each unwell part (database, disk, mail,
 *   jobs) with a sentence on what to do. For monitoring and alerts; `/healthz` stays the cheap probe
 *   for restarts and load balancers (a mail backlog is no reason to take the site out).
 * - `GET /metrics`: the same figures in Prometheus' text format (Prometheus, Grafana Agent, Netdata and
 *   Datadog read it), for a request with `Authorization: Bearer <METRICS_TOKEN>`, or without the setting
 *   from this machine only, straight (not through a proxy, which would make every visitor local).
 */
export function mountOperations(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/readyz', async (c) => {
    const unwell = unwellParts(await measureSite(deps), deps.env);
    c.header('cache-control', 'no-store');
    if (Object.keys(unwell).length === 0) return c.json({ status: 'ready' });
    return c.json({ status: 'unwell', unwell }, 503);
  });

  app.get('/metrics', async (c) => {
    if (!mayReadMetrics(c, deps.env.METRICS_TOKEN)) {
      return c.json(
        {
          error: {
            message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>, or a request from this machine',
          },
        },
        403,
      );
    }
    const figures = await measureSite(deps);
    c.header('cache-control', 'no-store');
    return c.body(prometheusText(figures, unwellParts(figures, deps.env)), 200, {
      'content-type': 'text/plain; version=0.0.4; charset=utf-8',
    });
  });
}

function mayReadMetrics(c: Context<AppEnv>, token: string | undefined): boolean {
  if (token) {
    const given = Buffer.from(c.req.header('authorization') ?? '');
    const expected = Buffer.from(`Bearer ${token}`);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
  const peer = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket
    ?.remoteAddress;
  const local = peer === '127.0.0.1' || peer === '::1' || peer === '::ffff:127.0.0.1';
  const proxied = ['x-forwarded-for', 'x-forwarded-host', 'forwarded'].some((h) => c.req.header(h));
  return local && !proxied;
}

type Unwell = ReturnType<typeof unwellParts>;

/** The figures as Prometheus text exposition (version 0.0.4): HELP, TYPE, then the samples. */
export function prometheusText(figures: SiteFigures, unwell: Unwell): string {
  const memory = process.memoryUsage();
  const metrics: [name: string, help: string, samples: [labels: string, value: number][]][] = [
    [
      'jalsa_ready',
      '1 when every part is well (GET /readyz names the others)',
      [['', Object.keys(unwell).length === 0 ? 1 : 0]],
    ],
    [
      'jalsa_part_ready',
      '1 when this part is well',
      (['database', 'disk', 'mail', 'jobs'] as const).map((part) => [
        `{part="${part}"}`,
        unwell[part] ? 0 : 1,
      ]),
    ],
    [
      'jalsa_disk_free_bytes',
      'Free space for the server in the file system of DATA_DIR',
      [['', figures.diskFreeBytes]],
    ],
    ['jalsa_disk_size_bytes', 'Size of the file system of DATA_DIR', [['', figures.diskSizeBytes]]],
    [
      'jalsa_database_bytes',
      'The database: the SQLite file with its WAL and shared-memory files, or the PostgreSQL database (pg_database_size)',
      [['', figures.databaseBytes]],
    ],
    [
      'jalsa_mail_pending',
      'Mail waiting to be sent, by kind',
      [
        ['{kind="transactional"}', figures.mailPending.transactional],
        ['{kind="bulk"}', figures.mailPending.bulk],
      ],
    ],
    ['jalsa_mail_due', 'Transactional mail whose time to be sent has come', [['', figures.mailDue]]],
    [
      'jalsa_mail_oldest_due_seconds',
      'How long the oldest due transactional mail has waited',
      [['', figures.mailOldestDueSeconds]],
    ],
    [
      'jalsa_mail_failed',
      'Mail given up after its retries (docs/operations.md re-queues it)',
      [['', figures.mailFailed]],
    ],
    [
      'jalsa_holds_overdue',
      'Expired holds the sweeper has not released for over 2 minutes',
      [['', figures.holdsOverdue]],
    ],
    [
      'jalsa_anonymous_writes_last_hour',
      'Sign-ups and Contact Us messages in the last hour from everyone (bounded by SIGN_UPS_PER_HOUR and CONTACT_MESSAGES_PER_HOUR)',
      [
        ['{kind="sign-up"}', figures.anonymousWrites.signUps],
        ['{kind="contact"}', figures.anonymousWrites.contactMessages],
      ],
    ],
    ['jalsa_process_resident_bytes', 'Resident memory of the process answering', [['', memory.rss]]],
    [
      'jalsa_process_uptime_seconds',
      'Seconds since the process answering started',
      [['', Math.round(process.uptime())]],
    ],
  ];
  const lines: string[] = [];
  for (const [name, help, samples] of metrics) {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
    for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
  }
  return `${lines.join('\n')}\n`;
}
