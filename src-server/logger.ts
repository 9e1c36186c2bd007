import { DrizzleQueryError } from 'drizzle-orm/errors';
import pino from 'pino';

export type Logger = pino.Logger;

/**
 * Structured JSON logs. Secrets and personal data are redacted wherever they might be logged.
 * `destination` defaults to stdout; tests pass a stream to read what would have been written.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: {
      paths: [
        ...topAndOneDown(REDACTED_FIELDS),
        'headers.cookie',
        'headers.authorization',
        '*.headers.cookie',
        '*.headers.authorization',
      ],
      censor: '[redacted]',
    },
    serializers: { err: (err: unknown) => pino.stdSerializers.err(withoutQueryValues(err) as Error) },
  };
  return pino(options, destination ?? stdoutInBlocks());
}

/** Bytes of log lines gathered before one write to stdout (a few dozen access lines). */
const LOG_BLOCK_BYTES = 4096;
/** A quiet server's lines wait at most this long for a block to fill. */
const LOG_FLUSH_MS = 250;

/**
 * Stdout written synchronously in blocks of about 4 KB, and at least every quarter second, instead of
 * one write system call per line: the per-line write was a sixth of a signed-in call's CPU (ADR 0028).
 * An asynchronous destination was tried and dropped: under a sustained rush its queue fell seconds
 * behind (one write per event-loop turn) and grew without bound in memory (docs/benchmarks.md); a
 * block is written synchronously as soon as it fills, so nothing queues. What a hard kill can lose is
 * the last quarter second of lines; an ordinary exit, a crash by an uncaught error included, writes
 * them first.
 */
function stdoutInBlocks(): pino.DestinationStream {
  // One per process: every logger writing to stdout shares its block and its exit handler.
  if (stdout) return stdout;
  const stream = pino.destination({
    dest: 1,
    sync: true,
    minLength: LOG_BLOCK_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
  process.once('exit', () => {
    // `flush()`, not `flushSync()`: with `sync: true` both write at once, but `flushSync` retries any
    // failed write every 100 ms for ever, and when whatever read stdout has gone (EPIPE) that hung the
    // exit, the event loop blocked (a cluster worker outliving its dead primary, in CI). `flush` hands
    // the error to pino, which stops writing to a broken pipe.
    try {
      stream.flush();
    } catch {
      // stdout is gone and nobody listens for the error: nothing left to write to
    }
  });
  stdout = stream;
  return stream;
}
let stdout: pino.DestinationStream | undefined;

/**
 * The access log: one line per request, written to the same place as `logger`. Its lines have a fixed
 * shape (request id, method, path without the query string, status, duration) that holds no secrets
 * or personal data, so they skip the redaction walk, which costs ≈ 14 µs per line with this app's
 * wildcard paths against ≈ 4 µs for the whole line without it (docs/benchmarks.md).
 */
export function accessLogger(logger: Logger): Logger {
  // pino keeps a logger's destination under this documented symbol; its types don't declare it.
  const destination = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
  // Keeps the bindings `logger` carries (e.g. a worker's index).
  return pino({ level: logger.level }, destination).child(logger.bindings());
}

/**
 * Field names that hold secrets or personal data anywhere in this app: form inputs (sign-up, profile,
 * password change), checkout details and bookings, Razorpay's payment entity and checkout result.
 */
const REDACTED_FIELDS = [
  'password',
  'currentPassword',
  'confirmPassword',
  'token',
  'email',
  'userEmail',
  'phone',
  'userPhone',
  'mobile',
  'contact',
  'signature',
  'razorpay_signature',
];

function topAndOneDown(fields: string[]): string[] {
  return fields.flatMap((field) => [field, `*.${field}`]);
}

/**
 * An error as it may be logged: a failed query's statement without its values. Drizzle's query error
 * carries the statement's parameters in its message and `params` (a sign-up's name, e-mail and password
 * hash; a buyer's phone), and every error that wraps it (tRPC's) copies that message; PostgreSQL's own
 * error adds the values of a violated key in `detail`. Each such error in the chain is replaced by a copy
 * whose message names the statement only, with the same stack frames; the field names redacted above
 * cannot reach text inside a message.
 */
function withoutQueryValues(err: unknown): unknown {
  const failed = failedQueryIn(err);
  if (!failed) return err;
  const leaked = failed.message;
  const safeMessage = `Failed query: ${failed.query}`;
  const copy = (error: Error, depth: number): Error => {
    const cause = (error as { cause?: unknown }).cause;
    const message = error === failed ? safeMessage : error.message.split(leaked).join(safeMessage);
    // Of the same class (pino logs its name as the error's type), with the native fields not enumerable.
    const safe = Object.create(Object.getPrototypeOf(error) as object) as Error;
    const field = (value: unknown) => ({ value, writable: true, configurable: true, enumerable: false });
    Object.defineProperties(safe, {
      message: field(message),
      stack: field(`${error.name}: ${message}\n${framesOf(error)}`),
      cause: field(cause instanceof Error && depth < MAX_CAUSES ? copy(cause, depth + 1) : undefined),
    });
    if (Object.hasOwn(error, 'name')) safe.name = error.name;
    for (const [key, value] of Object.entries(error)) {
      if (key === 'cause' || key === 'message' || key === 'stack' || SECRET_ERROR_FIELDS.has(key)) continue;
      (safe as unknown as Record<string, unknown>)[key] = value;
    }
    return safe;
  };
  return copy(err as Error, 0);
}

/** Fields of a failed query's errors that hold values: Drizzle's parameters, PostgreSQL's key detail. */
const SECRET_ERROR_FIELDS = new Set(['params', 'detail', 'where', 'internalQuery']);
const MAX_CAUSES = 8;

function failedQueryIn(err: unknown): DrizzleQueryError | null {
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth <= MAX_CAUSES; depth++) {
    if (current instanceof DrizzleQueryError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function framesOf(error: Error): string {
  return (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
}
