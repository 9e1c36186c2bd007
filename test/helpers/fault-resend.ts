import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { HttpResponse, http } from 'msw';

/**
 * What the fake does with a request:
 * - `network`: no answer at all (the connection fails);
 * - `server-error` / `rate-limited`: Resend's 503 and 429 error bodies;
 * - `lost-answer`: the mail is accepted and delivered, but the answer never arrives;
 * - `hold`: the mail is accepted and delivered, and the answer is held until `release()` (or forever).
 */
export type ResendFault = 'network' | 'server-error' | 'rate-limited' | 'lost-answer' | 'hold';

export interface ResendRequest {
  key: string | null;
  to: string;
  subject: string;
  fault: ResendFault | null;
}

/**
 * A stand-in for Resend's POST /emails that keeps its books like the real one: a request with an
 * Idempotency-Key it has already accepted gets the first answer again and delivers nothing new.
 * `deliveries` lists what reached an inbox: a message retried under a new key would show up twice.
 */
export function createFakeResend() {
  const requests: ResendRequest[] = [];
  const deliveries: { key: string; id: string; to: string; subject: string }[] = [];
  let outage: ResendFault | null = null;
  const next: ResendFault[] = [];
  const held: (() => void)[] = [];

  function deliver(key: string, to: string, subject: string) {
    const id = `email_${deliveries.length + 1}`;
    deliveries.push({ key, id, to, subject });
    return id;
  }

  /** The fake's answer, or 'no-answer' when the connection should fail. */
  async function handle(request: Request): Promise<Response | 'no-answer'> {
    const key = request.headers.get('idempotency-key');
    const body = (await request.json()) as { to: string | string[]; subject: string };
    const to = Array.isArray(body.to) ? body.to.join(',') : body.to;
    const fault = next.shift() ?? outage;
    requests.push({ key, to, subject: body.subject, fault });
    if (!key)
      return Response.json({ statusCode: 422, name: 'validation_error', message: 'no key' }, { status: 422 });
    switch (fault) {
      case 'network':
        return 'no-answer';
      case 'server-error':
        return Response.json(
          { statusCode: 503, name: 'application_error', message: 'Service unavailable' },
          { status: 503 },
        );
      case 'rate-limited':
        return Response.json(
          { statusCode: 429, name: 'rate_limit_exceeded', message: 'Too many requests' },
          { status: 429 },
        );
      default:
    }
    const known = deliveries.find((d) => d.key === key);
    const id = known?.id ?? deliver(key, to, body.subject);
    if (fault === 'lost-answer') return 'no-answer';
    if (fault === 'hold') await new Promise<void>((resolve) => held.push(resolve));
    return Response.json({ id });
  }

  return {
    requests,
    deliveries,
    /** Every request from now on meets `fault` (null: the provider works again). */
    setOutage(fault: ResendFault | null) {
      outage = fault;
    },
    /** The next requests meet these faults, one each, before the outage (if any) applies again. */
    failNext(...faults: ResendFault[]) {
      next.push(...faults);
    },
    /** Lets held answers go. */
    release() {
      for (const resolve of held.splice(0)) resolve();
    },
    /** For msw in this process: Resend's API host. */
    mswHandler: http.post('https://api.resend.com/emails', async ({ request }) => {
      const answer = await handle(request);
      return answer === 'no-answer' ? HttpResponse.error() : answer;
    }),
    /** For a server child process (RESEND_BASE_URL): the same fake on a local port. */
    listen(): Promise<{ url: string; close: () => Promise<void> }> {
      return new Promise((resolve) => {
        const server = serve(
          {
            port: 0,
            hostname: '127.0.0.1',
            fetch: async (req) => {
              const answer = await handle(req);
              // A connection that fails: never answer (the client gives up when the server dies).
              return answer === 'no-answer' ? new Promise<Response>(() => {}) : answer;
            },
          },
          (info: AddressInfo) =>
            resolve({
              url: `http://127.0.0.1:${info.port}`,
              close: () =>
                new Promise((done) => {
                  for (const resolve of held.splice(0)) resolve();
                  server.close(() => done());
                  (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
                }),
            }),
        );
      });
    },
  };
}

export type FakeResend = ReturnType<typeof createFakeResend>;
