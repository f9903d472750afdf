import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { TextDecoder } from 'node:util';
import ipaddr from 'ipaddr.js';
import { MnemographError, type ErrorCode } from '../errors.js';
import { HtmlText } from './html-text.js';

/** Whether a connection to this IP address is allowed. */
export type AddressPolicy = (address: string) => boolean;
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** Public unicast only: loopback, private, link-local (cloud metadata), CGNAT, multicast, reserved and the IPv6 tunnels that embed IPv4 are refused. */
export const publicAddressesOnly: AddressPolicy = (address) => {
  try {
    return ipaddr.process(address).range() === 'unicast';
  } catch {
    return false;
  }
};
export const anyAddress: AddressPolicy = () => true;

export const ALLOWED_TYPES = ['text/html', 'application/xhtml+xml', 'application/json', 'application/xml'];
export const MAX_REDIRECTS = 5;

export interface FetchOptions {
  timeoutMs: number;
  maxBytes: number;
  allowAddress: AddressPolicy;
  /** Defaults to the system resolver (every address of the name is checked). */
  resolve?: Resolver;
}

export interface FetchedDocument {
  /** The URL after redirects. */
  url: string;
  contentType: string;
  title: string | null;
  text: string;
  bytes: number;
}

/** A fetch that failed; `permanent` ones (refused, too large, wrong type, 4xx) are not retried. */
export class FetchError extends MnemographError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly permanent: boolean,
  ) {
    super(code, message, { retriable: !permanent });
  }
}

const refused = (message: string) => new FetchError('FORBIDDEN', message, true);

/** Only http(s), no credentials in the URL. */
export function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('BAD_USER_INPUT', 'url is not a valid absolute URL', true);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchError('BAD_USER_INPUT', `only http and https URLs are fetched (got ${url.protocol})`, true);
  if (url.username || url.password) throw new FetchError('BAD_USER_INPUT', 'URLs with credentials are refused', true);
  return url;
}

/**
 * The URL fetcher, hostile by default: the address of every hop (after DNS resolution, and
 * on each redirect) must pass `allowAddress` before anything is sent to it; the connection goes to
 * exactly the address checked. One deadline for the whole fetch; the body is counted as it streams
 * and cut at `maxBytes`; only text types are read; HTML becomes text without script and style.
 */
export async function fetchUrl(raw: string, options: FetchOptions): Promise<FetchedDocument> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    let url = checkUrl(raw);
    for (let hop = 0; ; hop += 1) {
      const response = await request(url, options, controller.signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (hop >= MAX_REDIRECTS) throw new FetchError('BAD_USER_INPUT', `more than ${MAX_REDIRECTS} redirects`, true);
        url = checkUrl(new URL(response.headers.location, url).toString());
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new FetchError(
          status >= 500 || status === 429 ? 'UNAVAILABLE' : 'BAD_USER_INPUT',
          `the server answered HTTP ${status}`,
          !(status >= 500 || status === 429),
        );
      }
      return await readBody(url, response, options.maxBytes);
    }
  } catch (error) {
    if (controller.signal.aborted) throw new FetchError('TIMEOUT', `the fetch took longer than ${options.timeoutMs} ms`, false);
    if (error instanceof FetchError) throw error;
    throw new FetchError('UNAVAILABLE', `the fetch failed: ${(error as NodeJS.ErrnoException).code ?? 'network error'}`, false);
  } finally {
    clearTimeout(timer);
  }
}

function request(url: URL, options: FetchOptions, signal: AbortSignal): Promise<http.IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is never looked up: check it here.
  if (isIP(host) && !options.allowAddress(host)) return Promise.reject(refused(`the address ${host} is not a public address`));
  const resolve = options.resolve ?? ((name: string) => dnsLookup(name, { all: true, verbatim: true }));
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const bad = addresses.find((a) => !options.allowAddress(a.address));
        if (addresses.length === 0) return callback(new FetchError('UNAVAILABLE', `${hostname} did not resolve`, false), '', 4);
        if (bad) return callback(refused(`${hostname} resolves to ${bad.address}, not a public address`), '', 4);
        if ((lookupOptions as { all?: boolean }).all)
          return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolvePromise, reject) => {
    const req = client.request(
      url,
      {
        method: 'GET',
        signal,
        lookup,
        headers: {
          accept: 'text/html, text/*;q=0.9, application/json;q=0.8, application/xml;q=0.8',
          'user-agent': 'mnemograph-document-ingest',
        },
      },
      resolvePromise,
    );
    req.on('error', (error) =>
      reject(
        error instanceof FetchError
          ? error
          : (error as Error & { cause?: unknown }).cause instanceof FetchError
            ? (error as Error & { cause: FetchError }).cause
            : error,
      ),
    );
    req.end();
  });
}

async function readBody(url: URL, response: http.IncomingMessage, maxBytes: number): Promise<FetchedDocument> {
  const [mediaType = '', ...params] = String(response.headers['content-type'] ?? '').split(';');
  const type = mediaType.trim().toLowerCase();
  if (!(type.startsWith('text/') || ALLOWED_TYPES.includes(type))) {
    response.resume();
    throw new FetchError(
      'BAD_USER_INPUT',
      `content type "${type || 'none'}" is not text (allowed: text/*, ${ALLOWED_TYPES.join(', ')})`,
      true,
    );
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw new FetchError('LIMIT_EXCEEDED', `the body is ${declared} bytes; at most ${maxBytes} (DOCUMENT_MAX_CONTENT_BYTES)`, true);
  }
  const decoder = textDecoder(params);
  const html = type === 'text/html' || type === 'application/xhtml+xml' ? new HtmlText() : null;
  const parts: string[] = [];
  let bytes = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      response.destroy();
      throw new FetchError('LIMIT_EXCEEDED', `the body is over ${maxBytes} bytes (DOCUMENT_MAX_CONTENT_BYTES)`, true);
    }
    const text = decoder.decode(chunk, { stream: true });
    if (html) html.write(text);
    else parts.push(text);
  }
  const tail = decoder.decode();
  if (html) {
    html.write(tail);
    const { text, title } = html.end();
    return { url: url.toString(), contentType: type, title, text, bytes };
  }
  parts.push(tail);
  return { url: url.toString(), contentType: type, title: null, text: parts.join(''), bytes };
}

/** The declared charset when the runtime knows it, else UTF-8. */
function textDecoder(params: string[]): TextDecoder {
  const charset = params
    .map((p) => p.trim().toLowerCase())
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  try {
    return new TextDecoder(charset || 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}
