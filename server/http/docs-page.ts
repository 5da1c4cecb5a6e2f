/**
 * `GET /docs`: the interactive API reference, rendered in the browser by Scalar's standalone bundle
 * (`@scalar/api-reference`) from `GET /v1/openapi.json`. The bundle is served from our own
 * node_modules at `GET /docs/scalar.js`, so the page works offline; Scalar's hosted fonts, proxy,
 * telemetry and AI agent are turned off. No key is needed to read the page; its "Test request"
 * panel sends the reader's key in the `x-api-key` header (the document's `ApiKey` scheme).
 *
 * Outside `/v1` and the published contract, like `/health`: no credits, no rate limit.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { H3 } from 'h3';
import { FastResponse } from 'srvx';
import { requestIdOf } from './answer-headers.ts';
import { methodNotAllowed } from './errors.ts';
import { OPENAPI_PATH } from './openapi.ts';

export const DOCS_PATH = '/docs';
export const DOCS_BUNDLE_PATH = '/docs/scalar.js';

/**
 * Scalar's configuration: our document, our fonts (the system's), nothing fetched from elsewhere.
 * The page adds the server it was loaded from, so "Test Request" calls this server (the document's
 * relative `/` server would be joined into `//v1/...`).
 */
const SCALAR_CONFIG = {
  url: OPENAPI_PATH,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: false,
  showDeveloperTools: 'never',
  authentication: { preferredSecurityScheme: 'ApiKey' },
  defaultOpenAllTags: true,
};

/** The page: an element for Scalar to fill and the call that fills it. */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Perpetuals Analytics Data Service: API reference</title>
</head>
<body>
<noscript>This page needs JavaScript. The same reference is at ${OPENAPI_PATH} (OpenAPI 3.1).</noscript>
<div id="app"></div>
<script src="${DOCS_BUNDLE_PATH}"></script>
<script>Scalar.createApiReference('#app', Object.assign(${JSON.stringify(SCALAR_CONFIG)}, { servers: [{ url: location.origin, description: 'This server' }] }));</script>
</body>
</html>
`;

/** The standalone bundle's path inside the installed package (not in its `exports`, so found from its entry point). */
export function scalarBundlePath(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return join(dirname(entry), 'browser', 'standalone.js');
}

interface Bundle {
  raw: Buffer;
  gzip: Buffer;
}

let bundle: Bundle | undefined;

/** The bundle, read and compressed once (4 MB raw, about 1 MB gzipped). */
function bundleOf(): Bundle {
  if (!bundle) {
    const raw = readFileSync(scalarBundlePath());
    bundle = { raw, gzip: gzipSync(raw) };
  }
  return bundle;
}

/** Mounts {@link DOCS_PATH} and {@link DOCS_BUNDLE_PATH} on `app` (GET only; anything else is the usual 405). */
export function mountDocs(app: H3): void {
  app.all(DOCS_PATH, (event) => {
    if (event.req.method !== 'GET') throw methodNotAllowed();
    return new FastResponse(DOCS_HTML, {
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': requestIdOf(event) },
    });
  });
  app.all(DOCS_BUNDLE_PATH, (event) => {
    if (event.req.method !== 'GET') throw methodNotAllowed();
    const { raw, gzip } = bundleOf();
    const gzipped = /\bgzip\b/.test(event.req.headers.get('accept-encoding') ?? '');
    const headers: Record<string, string> = {
      'content-type': 'text/javascript; charset=utf-8',
      // the bundle changes only with the installed package, i.e. with a restart
      'cache-control': 'public, max-age=3600',
      vary: 'accept-encoding',
      'x-request-id': requestIdOf(event),
    };
    if (gzipped) headers['content-encoding'] = 'gzip';
    return new FastResponse(new Uint8Array(gzipped ? gzip : raw), { headers });
  });
}
