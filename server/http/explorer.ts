/**
 * Serves the explorer (server/explorer/): its page at `/` and its two assets, the script bundled
 * from the page's TypeScript with esbuild (the chart library included) and the style sheet. The
 * bundle is built once, in memory, by the first request that needs it (a fraction of a second),
 * so the service has no build step and the page loads nothing from elsewhere. The page needs no
 * key: it asks its user for one and sends it in `x-api-key` to the API like any client.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { encodeBody } from './compression.ts';
import { log } from '../lib/log.ts';

const ROOT = fileURLToPath(new URL('../explorer/', import.meta.url));

/** The explorer's files as served: path → type and bytes. */
type Assets = Map<string, { type: string; body: Buffer }>;

let assets: Promise<Assets> | undefined;

/** Builds the bundle and reads the page and style sheet (once; a failed build is retried by the next request). */
function loadAssets(): Promise<Assets> {
  assets ??= (async () => {
    const started = performance.now();
    const bundle = await build({
      entryPoints: [`${ROOT}src/main.ts`],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      minify: true,
      sourcemap: false,
      write: false,
      legalComments: 'none',
      logLevel: 'silent',
    });
    const [page, style] = await Promise.all([readFile(`${ROOT}index.html`), readFile(`${ROOT}style.css`)]);
    log.info(`explorer: bundled in ${Math.round(performance.now() - started)} ms`);
    return new Map([
      ['/', { type: 'text/html;charset=UTF-8', body: page }],
      ['/explorer/app.js', { type: 'text/javascript;charset=UTF-8', body: Buffer.from(bundle.outputFiles[0]!.contents) }],
      ['/explorer/style.css', { type: 'text/css;charset=UTF-8', body: style }],
    ]);
  })();
  assets.catch(() => {
    assets = undefined;
  });
  return assets;
}

/** The answer for one asset: compressed when the client takes it; revalidated on every load (a restart may change it). */
async function serveAsset(event: H3Event, path: string): Promise<Response> {
  const asset = (await loadAssets()).get(path)!;
  const encoded = encodeBody(asset.body, event.req.headers.get('accept-encoding'));
  return new FastResponse(encoded.body as Uint8Array<ArrayBuffer>, {
    headers: {
      'content-type': asset.type,
      ...encoded.headers,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      // the page runs only our own script and talks only to this service
      'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; frame-ancestors 'none'",
    },
  });
}

/** Mounts `/`, `/explorer/app.js` and `/explorer/style.css` on `app`. */
export function mountExplorer(app: H3): void {
  for (const path of ['/', '/explorer/app.js', '/explorer/style.css']) {
    app.get(path, (event) => serveAsset(event, path));
  }
}
