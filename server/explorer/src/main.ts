/**
 * The explorer's shell: the key box, the protocol switch, the navigation and a hash router
 * (`#/<protocol>/<view>/<args>`: links carry no key, and the hash never reaches a server log).
 */
import { onUnauthorized, storedKey, storeKey } from './api.ts';
import { disposeCharts } from './charts.ts';
import { href, PROTOCOLS, type Protocol, type ViewContext } from './context.ts';
import { h } from './dom.ts';
import { renderAccount } from './views/account.ts';
import { renderLeaderboard } from './views/leaderboard.ts';
import { renderMarket } from './views/market.ts';
import { renderOverview } from './views/overview.ts';
import { renderPosition } from './views/position.ts';
import { renderTape } from './views/tape.ts';

const VIEWS: Record<string, { title: string; nav: boolean; render: (ctx: ViewContext) => void | Promise<void> }> = {
  overview: { title: 'Overview', nav: true, render: renderOverview },
  market: { title: 'Markets', nav: true, render: renderMarket },
  tape: { title: 'Live tape', nav: true, render: renderTape },
  leaderboard: { title: 'Leaderboard', nav: true, render: renderLeaderboard },
  account: { title: 'Account', nav: false, render: renderAccount },
  position: { title: 'Position', nav: false, render: renderPosition },
};

let leaving: (() => void)[] = [];
let generation = 0;

function parseHash(): { protocol: Protocol; view: string; args: string[] } {
  const [protocol, view, ...args] = location.hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '');
  return {
    protocol: (PROTOCOLS as readonly string[]).includes(protocol ?? '') ? (protocol as Protocol) : 'alpha',
    view: view !== undefined && view in VIEWS ? view : 'overview',
    args: args.map((a) => decodeURIComponent(a)),
  };
}

function renderShell(protocol: Protocol, view: string): void {
  const nav = document.getElementById('nav')!;
  nav.replaceChildren(
    ...Object.entries(VIEWS)
      .filter(([, v]) => v.nav)
      .map(([name, v]) => h('a', { href: href(protocol, name), class: name === view ? 'on' : undefined }, v.title)),
  );
  const protocols = document.getElementById('protocols')!;
  protocols.replaceChildren(
    ...PROTOCOLS.map((p) => {
      // switching protocol keeps the view where it makes sense (an account or position is one protocol's)
      const target = view === 'account' || view === 'position' ? 'overview' : view;
      return h('a', { href: href(p, target), class: p === protocol ? 'on' : undefined, 'aria-pressed': String(p === protocol) }, p);
    }),
  );
}

function route(): void {
  for (const cleanup of leaving) cleanup();
  leaving = [];
  disposeCharts();
  const mine = ++generation;
  const { protocol, view, args } = parseHash();
  renderShell(protocol, view);
  const root = document.getElementById('view')!;
  root.replaceChildren();
  document.title = `${VIEWS[view]!.title} · ${protocol} · Perps explorer`;
  const ctx: ViewContext = { protocol, args, root, alive: () => generation === mine, onLeave: (fn) => leaving.push(fn) };
  void Promise.resolve(VIEWS[view]!.render(ctx)).catch((err: unknown) => {
    root.append(h('p', { class: 'error', role: 'alert' }, `This view failed: ${(err as Error).message}`));
  });
}

function notice(text: string | null): void {
  const el = document.getElementById('notice')!;
  el.hidden = text === null;
  el.textContent = text ?? '';
}

function setupKeyForm(): void {
  const form = document.getElementById('key-form') as HTMLFormElement;
  const input = document.getElementById('key-input') as HTMLInputElement;
  input.placeholder = storedKey() ? 'Key saved in this browser · paste to replace' : 'Paste your API key';
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const key = input.value.trim();
    if (!key) return;
    storeKey(key);
    input.value = '';
    input.placeholder = 'Key saved in this browser · paste to replace';
    notice(null);
    route();
  });
  document.getElementById('key-forget')!.addEventListener('click', () => {
    storeKey(null);
    input.placeholder = 'Paste your API key';
    notice('Key removed from this browser.');
    route();
  });
  onUnauthorized((failure) => notice(`Your API key was refused (401): ${failure.message} Paste a valid key at the top right.`));
  if (!storedKey()) notice('Paste an API key at the top right to load data. It is kept in this browser only and sent in the x-api-key header.');
}

setupKeyForm();
window.addEventListener('hashchange', route);
route();
