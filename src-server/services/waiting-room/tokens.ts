import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The waiting room's two signed strings (HMAC-SHA256 with the app secret, each with its own purpose
 * label so one can never pass for the other):
 * - the queue token, issued at join: which visitor row (event, row id, account) a status check is
 *   about, so a check needs no session look-up;
 * - the admission pass, issued by a status check once the visitor is admitted: the account may Proceed
 *   on that event until it expires.
 * Format: base64url(JSON payload) '.' base64url(MAC).
 */
export interface QueueToken {
  eventId: string;
  visitorId: number;
  userId: string;
}

export interface AdmissionPass {
  eventId: string;
  userId: string;
  expiresAt: number;
}

export function signQueueToken(secret: string, token: QueueToken): string {
  return sign(secret, 'queue', { e: token.eventId, v: token.visitorId, u: token.userId });
}

export function verifyQueueToken(secret: string, token: string, eventId: string): QueueToken | null {
  const payload = verify(secret, 'queue', token);
  if (!payload || payload.e !== eventId || typeof payload.v !== 'number' || typeof payload.u !== 'string') {
    return null;
  }
  return { eventId, visitorId: payload.v, userId: payload.u };
}

export function signAdmissionPass(secret: string, pass: AdmissionPass): string {
  return sign(secret, 'pass', { e: pass.eventId, u: pass.userId, x: pass.expiresAt });
}

/** Whether `pass` admits `userId` to Proceed on `eventId` at `now`: signed here, theirs, not expired. */
export function admissionPassValid(
  secret: string,
  pass: string | undefined,
  expect: { eventId: string; userId: string; now: Date },
): boolean {
  if (!pass) return false;
  const payload = verify(secret, 'pass', pass);
  return (
    !!payload &&
    payload.e === expect.eventId &&
    payload.u === expect.userId &&
    typeof payload.x === 'number' &&
    payload.x > expect.now.getTime()
  );
}

type Payload = Record<string, string | number>;

function mac(secret: string, purpose: string, body: string): Buffer {
  return createHmac('sha256', secret).update(`jalsa-waiting-room-${purpose}.${body}`).digest();
}

function sign(secret: string, purpose: string, payload: Payload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(secret, purpose, body).toString('base64url')}`;
}

function verify(secret: string, purpose: string, token: string): Payload | null {
  if (token.length > 600) return null;
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = mac(secret, purpose, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Payload) : null;
  } catch {
    return null;
  }
}
