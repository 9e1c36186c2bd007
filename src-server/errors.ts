/**
 * Domain errors thrown by services. One tRPC middleware (trpc/init.ts) and the plain HTTP routes map
 * them to status codes; the message is the spec's user-facing text.
 */
export type DomainErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'BAD_REQUEST'
  | 'TOO_MANY_REQUESTS'
  | 'PRECONDITION_FAILED';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Field-level messages for forms, keyed by field name. */
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError('NOT_FOUND', message);
export const badRequest = (message: string, fieldErrors?: Record<string, string>) =>
  new DomainError('BAD_REQUEST', message, fieldErrors);
export const conflict = (message: string, fieldErrors?: Record<string, string>) =>
  new DomainError('CONFLICT', message, fieldErrors);
export const unauthorized = (message = 'User not authenticated') => new DomainError('UNAUTHORIZED', message);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
export const tooManyRequests = (message: string) => new DomainError('TOO_MANY_REQUESTS', message);
