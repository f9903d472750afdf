import type { Principal } from '../auth.js';

/** One value of a request header (the first, when it came more than once). */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The principal the admission middleware (src/http) authenticated for this response's request. */
export function principalOf(res: { locals: Record<string, unknown> }): Principal | undefined {
  return res.locals.principal as Principal | undefined;
}

/** Records who the request's caller is, for every handler after admission. */
export function setPrincipal(res: { locals: Record<string, unknown> }, principal: Principal): void {
  res.locals.principal = principal;
}
