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
  // Stdout is written synchronously, a line per write. An asynchronous destination was tried and
  // dropped: under a sustained rush its queue fell seconds behind (one write per event-loop turn) and
  // grew without bound in memory (docs/benchmarks.md).
  return destination ? pino(options, destination) : pino(options);
}

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
