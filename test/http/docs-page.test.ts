/**
 * `GET /docs` in a real browser: Debian's Chromium (headless, driven by playwright-core) loads the
 * page from a running server, Scalar renders `/v1/openapi.json`, and every endpoint of the route
 * list shows up in the rendered reference. No key is sent, and no request leaves the machine.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext } from 'playwright-core';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { startServer, type RunningServer } from '../../server/main/serve.ts';
import { DOCS_BUNDLE_PATH, DOCS_PATH } from '../../server/http/docs-page.ts';
import { OPENAPI_PATH } from '../../server/http/openapi.ts';

const CHROMIUM = '/usr/bin/chromium';
const NOW = Date.UTC(2026, 5, 2);

let test: TestApp;
let server: RunningServer;
let base: string;

beforeAll(async () => {
  test = await openTestApp({ now: NOW });
  server = await startServer({ service: test.service, keys: test.keys, limits: test.limits, port: 0, hostname: '127.0.0.1' });
  base = server.url.replace(/\/$/, '');
});
afterAll(async () => {
  await server?.close();
  await test?.close();
});

describe('GET /docs over HTTP', () => {
  it('answers the page without a key, and the bundle it loads from our own dependencies', async () => {
    const page = await fetch(`${base}${DOCS_PATH}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(`src="${DOCS_BUNDLE_PATH}"`);
    expect(html).toContain(OPENAPI_PATH);
    // nothing is loaded from another host
    expect(html).not.toMatch(/\b(src|href)="https?:/);

    const gz = await fetch(`${base}${DOCS_BUNDLE_PATH}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.status).toBe(200);
    expect(gz.headers.get('content-type')).toMatch(/^text\/javascript/);
    const js = await gz.text(); // fetch decompresses
    expect(js.length).toBeGreaterThan(1_000_000);
    expect(js).toContain('createApiReference');
  });

  it('refuses other methods with a 405', async () => {
    expect((await fetch(`${base}${DOCS_PATH}`, { method: 'POST' })).status).toBe(405);
  });
});

describe('GET /docs in headless Chromium', () => {
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    profile = mkdtempSync(join(tmpdir(), 'perps-chromium-'));
    // a fresh profile each run (playwright passes it as --user-data-dir)
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('renders every endpoint of the OpenAPI document, with the x-api-key scheme, fetching nothing from elsewhere', async () => {
    const doc = (await (await fetch(`${base}${OPENAPI_PATH}`)).json()) as { paths: Record<string, Record<string, { summary: string }>> };
    const page = await context.newPage();
    const foreign: string[] = [];
    const failed: string[] = [];
    page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(base) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
    });
    page.on('pageerror', (e) => failed.push(String(e)));
    // refuse anything off this server, so a renderer that reaches for a CDN shows up as a missing part
    await context.route(
      (url) => !url.href.startsWith(base) && url.protocol.startsWith('http'),
      (route) => route.abort(),
    );

    await page.goto(`${base}${DOCS_PATH}`, { waitUntil: 'domcontentloaded' });
    const summaries = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.summary));
    expect(summaries.length).toBeGreaterThan(20);
    // Scalar lists each operation under its summary once the document is rendered
    await page.getByText(summaries[0]!, { exact: false }).first().waitFor({ timeout: 30_000 });
    const text = await page.locator('body').innerText();
    const missing = summaries.filter((s) => !text.includes(s));
    expect(missing).toEqual([]);
    // the security scheme the reader fills in to try calls
    expect(text).toContain('x-api-key');
    expect(failed).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  }, 90_000);

  it('lets a reader try a call with a key: "Test Request" sends it in x-api-key to this server', async () => {
    const page = await context.newPage();
    await page.goto(`${base}${DOCS_PATH}`, { waitUntil: 'domcontentloaded' });
    await page.getByText('List the supported protocols.').first().waitFor({ timeout: 30_000 });
    // the authentication box of the ApiKey scheme (the page's only text input)
    const key = test.key('trial');
    await page.locator('input[type=text]').first().fill(key);
    await page.getByText('List the supported protocols.').first().click();
    await page
      .getByRole('button', { name: /Test Request.*get \/v1\/protocols\)/ })
      .first()
      .click();
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/v1/protocols'), { timeout: 30_000 }), page.getByRole('button', { name: /^Send/ }).first().click()]);
    expect(answer.url()).toBe(`${base}/v1/protocols`);
    expect(answer.status()).toBe(200);
    expect(await answer.request().headerValue('x-api-key')).toBe(key);
    expect((await answer.json()).data.map((p: { id: string }) => p.id)).toEqual(['alpha', 'beta']);
    await page.close();
  }, 90_000);
});
