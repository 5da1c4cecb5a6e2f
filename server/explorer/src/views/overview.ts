/** Overview: both protocols' totals, then the chosen protocol's markets with OI, rates, 24 h volume and liquidations. */
import { get } from '../api.ts';
import { href, PROTOCOLS, type ViewContext } from '../context.ts';
import { fill, h, panel, showFailure, stats, table } from '../dom.ts';
import { integer, price, rate, usd } from '../format.ts';
import { marketRows, type MarketRow } from './shared.ts';

interface ProtocolOverview {
  protocol: string;
  open_interest_usd: number;
  volume_24h_usd: number;
  fees_24h_usd: number;
  liquidations_24h_usd: number;
  markets: number;
}

export async function renderOverview(ctx: ViewContext): Promise<void> {
  const totals = panel('Protocols', null, true);
  const markets = panel(`${ctx.protocol} markets`, h('span', { class: 'hint' }, 'Rates are net hourly: positive, the side receives. Click a row for its charts.'), true);
  ctx.root.append(h('h1', {}, 'Overview'), totals.el, markets.el);

  const loadTotals = get<{ data: ProtocolOverview[] }>('/v1/protocols/stats').then(
    ({ data }) => {
      if (!ctx.alive()) return;
      fill(
        totals.body,
        h(
          'div',
          { class: 'protocol-cards' },
          ...PROTOCOLS.map((p) => {
            const o = data.find((d) => d.protocol === p);
            return h(
              'a',
              { class: p === ctx.protocol ? 'protocol-card on' : 'protocol-card', href: href(p, 'overview') },
              h('h3', {}, p),
              o
                ? stats([
                    ['Open interest', usd(o.open_interest_usd)],
                    ['Volume 24h', usd(o.volume_24h_usd)],
                    ['Fees 24h', usd(o.fees_24h_usd)],
                    ['Liq. 24h', usd(o.liquidations_24h_usd)],
                    ['Markets', integer(o.markets)],
                  ])
                : h('p', { class: 'note' }, 'No figures.'),
            );
          }),
        ),
      );
    },
    (err) => ctx.alive() && showFailure(totals.body, err, 'Protocol totals'),
  );

  const loadMarkets = marketRows(ctx.protocol).then(
    (rows) => {
      if (!ctx.alive()) return;
      const sorted = [...rows].sort((a, b) => b.open_interest_long_usd + b.open_interest_short_usd - (a.open_interest_long_usd + a.open_interest_short_usd));
      fill(
        markets.body,
        table<MarketRow>(
          [
            { title: 'Market', cell: (r) => h('strong', {}, r.market) },
            ...(ctx.protocol === 'alpha' ? [{ title: 'Pool', cell: (r: MarketRow) => h('span', { class: 'muted' }, r.market_variant ?? '–') }] : []),
            { title: 'Price', cell: (r) => price(r.index_price), numeric: true },
            { title: 'OI long', cell: (r) => usd(r.open_interest_long_usd), numeric: true },
            { title: 'OI short', cell: (r) => usd(r.open_interest_short_usd), numeric: true },
            { title: 'Rate long', cell: (r) => rate(r.funding_rate_long), numeric: true, tone: (r) => (r.funding_rate_long < 0 ? 'down' : r.funding_rate_long > 0 ? 'up' : '') },
            { title: 'Rate short', cell: (r) => rate(r.funding_rate_short), numeric: true, tone: (r) => (r.funding_rate_short < 0 ? 'down' : r.funding_rate_short > 0 ? 'up' : '') },
            { title: 'Volume 24h', cell: (r) => usd(r.volume_24h_usd), numeric: true },
            { title: 'Fees 24h', cell: (r) => usd(r.fees_24h_usd), numeric: true },
            { title: 'Liquidations 24h', cell: (r) => usd(r.liquidations_24h_usd), numeric: true },
          ],
          sorted,
          (r) => {
            location.hash = href(ctx.protocol, 'market', r.market);
          },
          'No active markets.',
        ),
      );
    },
    (err) => ctx.alive() && showFailure(markets.body, err, 'Markets'),
  );

  await Promise.all([loadTotals, loadMarkets]);
}
