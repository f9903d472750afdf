/**
 * Every error the service raises on purpose carries a stable `code`; `publicError` (below) decides
 * what a client sees of it, for GraphQL, MCP and plain HTTP alike.
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

/**
 * One item's outcome in a call that takes many (a batch of memories, of entities, of facts): its
 * position and either its result or its own error, so one failure does not refuse the others.
 */
export type ItemOutcome<R, E = MnemographError> =
  | { index: number; result: R; error?: undefined }
  | { index: number; result?: undefined; error: E };

export function isMnemographError(error: unknown): error is MnemographError {
  return error instanceof MnemographError;
}

/** What a client is told about a failure it cannot act on; the log has the rest under the request id. */
export const INTERNAL_MESSAGE = 'internal error (logged under this response’s x-request-id)';

/** A failure as every transport answers it: GraphQL's `extensions`, a batch item, an MCP tool error, plain HTTP. */
export interface PublicError {
  /** An ErrorCode, or BAD_REQUEST for a body HTTP could not read. */
  code: string;
  message: string;
  details?: Record<string, unknown>;
  /** The HTTP status when the error ends the whole request. */
  status: number;
  /** Seconds before a retry may succeed (HTTP Retry-After), for refusals that say when. */
  retryAfterSeconds?: number;
  /** A fault of the server, not of the request: answered INTERNAL without detail, to be logged in full. */
  internal: boolean;
}

/** Codes that describe the server itself (its configuration, its schema): never shown to a client. */
const HIDDEN_CODES: ReadonlySet<ErrorCode> = new Set(['INTERNAL', 'CONFIG_INVALID', 'MIGRATION_FAILED']);

const STATUS_OF: Partial<Record<ErrorCode, number>> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
};

const INTERNAL: PublicError = { code: 'INTERNAL', message: INTERNAL_MESSAGE, status: 500, internal: true };

/** body-parser's errors carry `type` and `status`; see its README. */
interface BodyParserError {
  type?: unknown;
  status?: unknown;
  expose?: unknown;
  limit?: unknown;
  length?: unknown;
  message?: unknown;
}

/**
 * The one rule for what a client sees of an error. Our coded errors keep their code, message and
 * details (a refusal that says when to come back is HTTP 429 with Retry-After, whatever its code);
 * body-parser's refusals become LIMIT_EXCEEDED (413) or BAD_REQUEST (400); anything else, and our
 * own INTERNAL, CONFIG_INVALID and MIGRATION_FAILED, is INTERNAL with a generic message.
 */
export function publicError(error: unknown): PublicError {
  if (isMnemographError(error)) {
    if (HIDDEN_CODES.has(error.code)) return INTERNAL;
    const own = { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}), internal: false };
    const retryAfterMs = (error as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof retryAfterMs === 'number') return { ...own, status: 429, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    return { ...own, status: STATUS_OF[error.code] ?? 400 };
  }
  const e = (error ?? {}) as BodyParserError;
  if (e.type === 'entity.too.large') {
    return {
      code: 'LIMIT_EXCEEDED',
      message: `request body exceeds the maximum of ${String(e.limit)} bytes (MAX_REQUEST_BYTES)`,
      details: { maxBytes: e.limit, ...(typeof e.length === 'number' ? { bytes: e.length } : {}) },
      status: 413,
      internal: false,
    };
  }
  if (e.type === 'entity.parse.failed')
    return { code: 'BAD_REQUEST', message: 'request body is not valid JSON', status: 400, internal: false };
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true)
    return { code: 'BAD_REQUEST', message: String(e.message), status: e.status, internal: false };
  return INTERNAL;
}
