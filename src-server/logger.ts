import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs. Secrets and personal data are redacted wherever they might be logged. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'headers.cookie',
        'headers.authorization',
        '*.headers.cookie',
        '*.headers.authorization',
        'email',
        '*.email',
        'phone',
        '*.phone',
      ],
      censor: '[redacted]',
    },
  });
}
