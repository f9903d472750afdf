import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Response, type Router } from 'express';
import { MnemographError } from '../errors.js';

/** The memory explorer's page; its data comes from POST /graphql with the caller's own key. */
export const EXPLORER_PATH = '/explorer';
const ASSET_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

/** `npm install` builds explorer/ into explorer/dist (from src/http or, compiled, dist/src/http). */
const DIST_CANDIDATES = ['../../explorer/dist/', '../../../explorer/dist/'].map((relative) =>
  fileURLToPath(new URL(relative, import.meta.url)),
);
export const EXPLORER_DIST = DIST_CANDIDATES.find((dir) => existsSync(join(dir, 'index.html'))) ?? DIST_CANDIDATES[0]!;

/**
 * Scripts, styles and requests only from this origin (no inline script or style, no CDN); the
 * graph is drawn on a canvas. The page can be framed by nobody and submits no form.
 */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': EXPLORER_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Hashed file names Vite writes: nothing else under assets/ is served. */
const ASSET_NAME = /^\w[\w.-]{0,99}\.(js|css)$/;
const TYPES = { js: 'application/javascript; charset=utf-8', css: 'text/css; charset=utf-8' } as const;

function sendAsset(res: Response, file: string, gzipAccepted: boolean, type: string): void {
  // Vite's build also writes <file>.gz (explorer/vite.config.ts): the compressed copy is sent as is.
  const gz = `${file}.gz`;
  res.set({ ...SECURITY_HEADERS, Vary: 'Accept-Encoding' }).type(type);
  if (gzipAccepted && existsSync(gz)) {
    res.set('Content-Encoding', 'gzip');
    return res.sendFile(gz, { maxAge: ASSET_MAX_AGE_MS, immutable: true, headers: { 'Content-Type': type } });
  }
  res.sendFile(file, { maxAge: ASSET_MAX_AGE_MS, immutable: true });
}

/**
 * GET /explorer: a read-mostly page over the GraphQL API, served from explorer/dist like the
 * IDE's assets. It needs no key to load; every call it makes goes through /graphql's admission.
 */
export function explorerRouter(distDir = EXPLORER_DIST): Router {
  const router = express.Router();
  let page: Promise<string> | null = null;

  router.get([EXPLORER_PATH, `${EXPLORER_PATH}/`], async (_req, res, next) => {
    page ??= readFile(join(distDir, 'index.html'), 'utf8');
    try {
      res
        .set({ ...SECURITY_HEADERS, 'Cache-Control': 'no-cache' })
        .type('html')
        .send(await page);
    } catch {
      page = null;
      next(new MnemographError('UNAVAILABLE', 'the explorer is not built: run npm run explorer:build'));
    }
  });
  router.get(`${EXPLORER_PATH}/assets/:file`, (req, res, next) => {
    const match = ASSET_NAME.exec(req.params.file);
    const file = match && join(distDir, 'assets', req.params.file);
    if (!match || !file || !existsSync(file)) return next();
    sendAsset(res, file, req.acceptsEncodings('gzip') === 'gzip', TYPES[match[1] as keyof typeof TYPES]);
  });
  return router;
}
