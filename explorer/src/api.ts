/**
 * The explorer's only way to the service: POST /graphql on this origin, with the caller's key,
 * a time limit, and errors reduced to the service's code and message (never a stack or a body).
 */

/** No call waits longer than this; the page shows a TIMEOUT instead. */
export const REQUEST_TIMEOUT_MS = 15_000;
const MAX_MESSAGE_CHARS = 300;
const KEY_STORAGE = 'mnemograph.explorer.key';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** This tab's session storage (gone when the tab closes); without storage, nothing is kept. */
export function remembered(name: string): string {
  try {
    return sessionStorage.getItem(name) ?? '';
  } catch {
    return '';
  }
}

export function remember(name: string, value: string): void {
  try {
    if (value) sessionStorage.setItem(name, value);
    else sessionStorage.removeItem(name);
  } catch {
    // Storage disabled: the value lasts as long as the page.
  }
}

/** The API key lives in the tab's session storage only. */
export const storedKey = (): string => remembered(KEY_STORAGE);
export const storeKey = (key: string): void => remember(KEY_STORAGE, key);

function clip(text: unknown): string {
  const value = typeof text === 'string' ? text : 'the request failed';
  return value.length > MAX_MESSAGE_CHARS ? `${value.slice(0, MAX_MESSAGE_CHARS)}…` : value;
}

interface GraphQLBody<T> {
  data?: T | null;
  errors?: Array<{ message?: unknown; extensions?: { code?: unknown } }>;
  // Admission refusals (401, 403, 429) come from the HTTP layer as {code, message}.
  code?: unknown;
  message?: unknown;
}

export async function gql<T>(key: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
      signal: controller.signal,
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'error',
    });
    let body: GraphQLBody<T>;
    try {
      body = (await response.json()) as GraphQLBody<T>;
    } catch {
      throw new ApiError(`HTTP_${response.status}`, `the service answered HTTP ${response.status}`);
    }
    const first = body.errors?.[0];
    if (first) throw new ApiError(typeof first.extensions?.code === 'string' ? first.extensions.code : 'ERROR', clip(first.message));
    if (typeof body.code === 'string') throw new ApiError(body.code, clip(body.message));
    if (!response.ok || !body.data) throw new ApiError(`HTTP_${response.status}`, `the service answered HTTP ${response.status}`);
    return body.data;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (controller.signal.aborted) throw new ApiError('TIMEOUT', `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    throw new ApiError('NETWORK', 'the service could not be reached');
  } finally {
    clearTimeout(timer);
  }
}
