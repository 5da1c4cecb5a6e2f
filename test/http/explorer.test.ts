/**
 * The explorer in a real browser (Debian's Chromium driven by playwright-core): one server on a
 * few simulated days, one browser for the file. Each view loads, its charts draw their series
 * (pixels of the series' colors on the chart's canvases, not just axes), the live tape receives
 * an appended fill, a bad key and a plan without the stream show the API's error, and the page
 * logs no console error. A screenshot of each view goes to test-results/explorer/ (git-ignored).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fill } from '../helpers/fixtures.ts';
import { openExplorerServer, type ExplorerServer } from '../helpers/explorer-server.ts';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(process.cwd(), 'test-results', 'explorer');
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Series colors of server/explorer/src/charts.ts, as RGB. */
const LONG = [0x26, 0xa6, 0x9a];
const SHORT = [0xef, 0x53, 0x50];
const ACCENT = [0x5b, 0x9c, 0xf6];
const AMBER = [0xf0, 0xb4, 0x29];

let s: ExplorerServer;
let context: BrowserContext;
let page: Page;
let profile: string;
/** Console errors of the page; "Failed to load resource" lines are kept apart with their URL. */
const consoleErrors: string[] = [];
const failedLoads: { url: string; text: string }[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  mkdirSync(SHOTS, { recursive: true });
  s = await openExplorerServer(3);
  profile = mkdtempSync(join(tmpdir(), 'explorer-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 900 } });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() !== 'error') return;
    if (m.text().startsWith('Failed to load resource')) failedLoads.push({ url: m.location().url, text: m.text() });
    else consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
  await page.goto(`${s.base}/`);
  await useKey(s.keys.premium);
}, 120_000);

afterAll(async () => {
  await context?.close();
  await s?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function useKey(key: string): Promise<void> {
  await page.fill('#key-input', key);
  await page.click('#key-form button[type=submit]');
}

/**
 * Shows the view of `hash` and waits until it has settled: its panels are there and none is still
 * loading. The old view is cleared first, so its panels cannot pass for the new one's; the same
 * hash again is re-rendered by a hashchange of our own (the router's cue).
 */
async function open(hash: string): Promise<void> {
  await page.evaluate((target) => {
    document.getElementById('view')!.replaceChildren();
    if (location.hash === target) window.dispatchEvent(new HashChangeEvent('hashchange'));
    else location.hash = target;
  }, hash);
  await page.waitForFunction(() => document.querySelectorAll('#view .panel').length > 0 && document.querySelectorAll('#view .loading').length === 0, null, { timeout: 20_000 });
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Whether the chart of the panel titled `title` has pixels of `rgb` on its canvases (its series drew). */
async function drew(title: string, rgb: number[]): Promise<boolean> {
  await page.waitForFunction((t) => [...document.querySelectorAll('.panel')].some((p) => p.querySelector('h2')?.textContent === t && p.querySelector('.chart canvas')), title, { timeout: 10_000 });
  // the library draws on the next animation frame
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(
    ([t, [r, g, b]]) => {
      const panel = [...document.querySelectorAll('.panel')].find((p) => p.querySelector('h2')?.textContent === t)!;
      for (const canvas of panel.querySelectorAll<HTMLCanvasElement>('.chart canvas')) {
        const ctx = canvas.getContext('2d');
        if (!ctx || canvas.width === 0 || canvas.height === 0) continue;
        const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < px.length; i += 4) {
          if (px[i + 3]! > 200 && Math.abs(px[i]! - r!) < 8 && Math.abs(px[i + 1]! - g!) < 8 && Math.abs(px[i + 2]! - b!) < 8) return true;
        }
      }
      return false;
    },
    [title, rgb] as const,
  );
}

const text = (selector: string): Promise<string> => page.locator(selector).first().innerText();

describe('explorer', () => {
  test("overview: both protocols' totals and the markets table", async () => {
    await open('#/alpha/overview');
    await page.waitForSelector('.protocol-card .stat');
    expect(await page.locator('.protocol-card').count()).toBe(2);
    expect(await text('.protocol-card')).toContain('Open interest');
    expect(await page.locator('table tbody tr').count()).toBeGreaterThan(3);
    await shot('overview');
    await page.locator('table tbody tr').first().click();
    await page.waitForURL(/#\/alpha\/market\//);
  });

  test('market view: OI, rates, volume and liquidation charts draw; interval and window selectors reload them', async () => {
    await open('#/alpha/market/SOL-PERP');
    expect(await drew('Open interest', LONG)).toBe(true);
    expect(await drew('Open interest', ACCENT)).toBe(false); // the check tells series apart: OI has no blue series
    expect(await drew('Rates', SHORT)).toBe(true);
    expect(await drew('Volume and fees', ACCENT)).toBe(true);
    expect(await drew('Volume and fees', AMBER)).toBe(true);
    expect((await drew('Liquidations', LONG)) || (await drew('Liquidations', SHORT))).toBe(true);
    // candles: drawn where the server has them, else a plain note
    const price = await text('.panel:has(h2:text-is("Price")) .panel-body');
    if (!/not available on this server yet/.test(price)) expect((await drew('Price', LONG)) || (await drew('Price', SHORT))).toBe(true);
    await shot('market');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.getByRole('button', { name: '4h', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('.segmented button.on')?.textContent === '4h');
    await page.getByRole('button', { name: '30d', exact: true }).click();
    expect(await drew('Open interest', LONG)).toBe(true);
    expect(requests.some((u) => u.includes('/open-interest/history') && u.includes('interval=4h'))).toBe(true);
    // 5m over a year is more than the API's 10,000 buckets: that window is not offered
    await page.getByRole('button', { name: '5m', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('.segmented button.on')?.textContent === '5m');
    expect(await page.getByRole('button', { name: '1y', exact: true }).isDisabled()).toBe(true);
  });

  test('beta market view: every panel either draws or says plainly that the endpoint is not here yet', async () => {
    await open('#/beta/market');
    for (const title of ['Price', 'Open interest', 'Rates', 'Volume and fees', 'Liquidations']) {
      const body = await text(`.panel:has(h2:text-is("${title}")) .panel-body`);
      if (/not available on this server yet/.test(body)) continue;
      expect(await page.locator(`.panel:has(h2:text-is("${title}")) .chart canvas`).count(), title).toBeGreaterThan(0);
    }
    expect(await page.locator('#view .error').count()).toBe(0);
    await shot('market-beta');
  });

  test("leaderboard: ranked by each of the API's sort keys", async () => {
    await open('#/alpha/leaderboard');
    expect(await page.locator('table tbody tr').count()).toBeGreaterThan(10);
    // the net-PnL table is marked, so the wait below ends only once the volume table replaced it
    await page.evaluate(() => document.querySelector('table tbody')!.setAttribute('data-old', ''));
    await Promise.all([page.waitForResponse((r) => r.url().includes('sort_by=volume')), page.getByRole('button', { name: 'Volume', exact: true }).click()]);
    await page.waitForFunction(() => document.querySelectorAll('table tbody:not([data-old]) tr').length > 10);
    const volumes = await page.locator('table tbody tr td:nth-child(4)').allInnerTexts();
    const usd = (v: string) => Number(v.replace(/[$,]/g, '').replace(/K$/, 'e3').replace(/M$/, 'e6'));
    expect(usd(volumes[0]!)).toBeGreaterThanOrEqual(usd(volumes[1]!));
    await shot('leaderboard');
  });

  test('account view: figures, open positions with distance to liquidation, closed positions', async () => {
    const top = (await (await fetch(`${s.base}/v1/alpha/open-positions/search?limit=1&sort_by=size`, { headers: { 'x-api-key': s.keys.premium } })).json()) as {
      data: { address: string; position_id: number }[];
    };
    const { address } = top.data[0]!;
    await open(`#/alpha/account/${address}`);
    expect(await text('.panel:has(h2:text-is("Figures"))')).toContain('Net PnL');
    expect(await page.locator('.panel:has(h2:text-is("Open positions")) tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('.panel:has(h2:text-is("Open positions")) .prox').count()).toBeGreaterThan(0);
    await shot('account');
  });

  test('position view: fills as markers on the price, size and collateral over time', async () => {
    const top = (await (await fetch(`${s.base}/v1/alpha/accounts/search?limit=1&sort_by=positions`, { headers: { 'x-api-key': s.keys.premium } })).json()) as { data: { address: string }[] };
    const address = top.data[0]!.address;
    const history = (await (await fetch(`${s.base}/v1/alpha/accounts/${address}/history?limit=100`, { headers: { 'x-api-key': s.keys.premium } })).json()) as {
      data: { position_id: number; fill_count: number }[];
    };
    const id = [...history.data].sort((a, b) => b.fill_count - a.fill_count)[0]!.position_id;
    await open(`#/alpha/position/${address}/${id}`);
    expect((await drew('Price and fills', ACCENT)) || (await drew('Price and fills', LONG))).toBe(true);
    expect(await drew('Size and collateral after each fill', ACCENT)).toBe(true);
    expect(await drew('Size and collateral after each fill', AMBER)).toBe(true);
    expect(await page.locator('.panel:has(h2:text-matches("^Fills")) tbody tr').count()).toBeGreaterThan(2);
    await shot('position');
  });

  test('live tape: a fill appended to the journal shows up', async () => {
    await open('#/alpha/tape');
    await page.waitForSelector('.status.live', { timeout: 10_000 });
    const marker = `TapeTest${Date.now()}`;
    await s.service.append({
      fills: [fill({ time: Date.now(), address: `${marker}1111111111111111111111111`.slice(0, 44), position_key: marker, market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]' })],
      marketSnapshots: [],
      positionSnapshots: [],
    });
    await page.waitForSelector(`.tape tbody tr a[title^="${marker}"]`, { timeout: 10_000 });
    expect(await text('.status')).toMatch(/Live · [1-9]\d* fills?,/);
    await shot('tape');
  });

  test("live tape on a plan without the stream: the API's 403, in words", async () => {
    await useKey(s.keys.starter);
    await open('#/alpha/tape');
    await page.waitForSelector('#view .error');
    expect(await text('#view .error')).toMatch(/Your plan does not include this \(403\).*premium/);
    await shot('tape-starter');
  });

  test('a bad key shows the 401 plainly', async () => {
    await useKey('pa_badbadba_000000000000000000000000000000000');
    await open('#/alpha/overview');
    await page.waitForSelector('#view .error');
    expect(await text('#view .error')).toContain('Your API key was refused (401)');
    expect(await page.locator('#notice').isVisible()).toBe(true);
    await shot('bad-key');
    // the key is never in a URL
    expect(page.url()).not.toContain('pa_');
    await useKey(s.keys.premium);
  });

  test('a key past its rate limit shows the 429 with the wait', async () => {
    // a trial key allows 60 requests a minute: use them up from here
    for (let i = 0; i < 60; i++) await fetch(`${s.base}/v1/protocols`, { headers: { 'x-api-key': s.keys.trial } });
    await useKey(s.keys.trial);
    await open('#/alpha/overview');
    expect(await text('#view .error')).toMatch(/Too many requests \(429\).*(retry after|Try again in) \d+ s\.$/);
    await shot('rate-limited');
    await useKey(s.keys.premium);
  });

  test('the page logged no console error; the only failed loads are endpoints this server lacks and the refused key', () => {
    expect(consoleErrors).toEqual([]);
    for (const { url, text: t } of failedLoads) {
      const expected =
        (t.includes('404') && /\/v1\/(beta\/|alpha\/prices|alpha\/fills)/.test(url)) ||
        (t.includes('401') && url.includes('/v1/')) ||
        (t.includes('429') && url.includes('/v1/')) ||
        (t.includes('403') && url.endsWith('/v1/stream/tickets'));
      expect(expected, `${t} ${url}`).toBe(true);
    }
  });
});
