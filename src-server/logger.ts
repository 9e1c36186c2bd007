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
