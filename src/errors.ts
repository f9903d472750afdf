/**
 * Every error the service raises on purpose carries a stable `code`; the GraphQL layer turns it
 * into `extensions.code` in one place (src/graphql/format-error.ts).
 */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'PII_REJECTED'
  | 'NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'LIMIT_EXCEEDED'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'TIMEOUT'
  | 'CONFIG_INVALID'
  | 'MIGRATION_FAILED'
  | 'INTERNAL';

export class MnemographError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** Whether the same call may succeed if simply tried again. */
  readonly retriable: boolean;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; cause?: unknown; retriable?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
    this.retriable = options.retriable ?? false;
  }
}

export class ValidationError extends MnemographError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('BAD_USER_INPUT', message, { details });
  }
}

export class PiiRejectedError extends MnemographError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('PII_REJECTED', message, { details });
  }
}

export class NotFoundError extends MnemographError {
  constructor(what: string, id: string) {
    super('NOT_FOUND', `${what} ${id} not found`, { details: { what, id } });
  }
}

export class UnauthenticatedError extends MnemographError {
  constructor(message = 'a valid API key is required (Authorization: Bearer <key>)') {
    super('UNAUTHENTICATED', message);
  }
}

export class ForbiddenError extends MnemographError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('FORBIDDEN', message, { details });
  }
}

export class LimitExceededError extends MnemographError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('LIMIT_EXCEEDED', message, { details });
  }
}

/** The record changed between the read a decision was made on and the write that applies it. */
export class ConflictError extends MnemographError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('CONFLICT', message, { details });
  }
}

export class RateLimitedError extends MnemographError {
  constructor(
    message: string,
    /** When the caller may try again. */
    readonly retryAfterMs: number,
  ) {
    super('RATE_LIMITED', message, { details: { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) }, retriable: true });
  }
}

export class UnavailableError extends MnemographError {
  constructor(message: string, cause?: unknown) {
    super('UNAVAILABLE', message, { cause, retriable: true });
  }
}

/** A database query ran past its transaction timeout (NEO4J_READ_TIMEOUT_MS / NEO4J_WRITE_TIMEOUT_MS). */
export class TimeoutError extends MnemographError {
  constructor(message: string, cause?: unknown) {
    super('TIMEOUT', message, { cause, retriable: true });
  }
}

export function isMnemographError(error: unknown): error is MnemographError {
  return error instanceof MnemographError;
}
