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
  return destination ? pino(options, destination) : pino(options);
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
