/**
 * Chart helpers over TradingView's Lightweight Charts: one look for every chart (dark, UTC time
 * axis, crosshair), ISO timestamps to the library's seconds, and a registry so a view's charts are
 * removed when the view goes. The library's attribution is the page footer's link to TradingView
 * (its logo on every chart sat over the data).
 */
import {
  AreaSeries,
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  HistogramSeries,
  LineSeries,
  LineType,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type ISeriesApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';

export const COLORS = {
  long: '#26a69a',
  short: '#ef5350',
  accent: '#5b9cf6',
  amber: '#f0b429',
  muted: '#8b93a7',
  violet: '#b388ff',
};

const live = new Set<IChartApi>();

/** Seconds since the epoch of an ISO timestamp, as the library takes time. */
export function toTime(iso: string): UTCTimestamp {
  return Math.floor(Date.parse(iso) / 1000) as UTCTimestamp;
}

/** A chart filling `container` (its height from CSS), with the page's look. */
export function timeChart(container: HTMLElement): IChartApi {
  const chart = createChart(container, {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: '#b8bfcc', fontSize: 11, attributionLogo: false },
    grid: { vertLines: { color: 'rgba(255,255,255,0.04)' }, horzLines: { color: 'rgba(255,255,255,0.06)' } },
    rightPriceScale: { borderColor: 'rgba(255,255,255,0.12)' },
    leftPriceScale: { borderColor: 'rgba(255,255,255,0.12)' },
    timeScale: { borderColor: 'rgba(255,255,255,0.12)', timeVisible: true, secondsVisible: false },
    crosshair: { mode: CrosshairMode.Normal },
  });
  live.add(chart);
  return chart;
}

/** Removes every chart made since the last call (a view is leaving). */
export function disposeCharts(): void {
  for (const chart of live) chart.remove();
  live.clear();
}

function compactNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${(value / 1e9).toFixed(2)}B`;
  if (abs >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (abs >= 1e4) return `${(value / 1e3).toFixed(1)}K`;
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(4);
}

/** Points sorted by time with at most one per second (the library needs strictly ascending times; the last value wins). */
export function points(rows: { time: UTCTimestamp; value: number }[]): { time: Time; value: number }[] {
  const byTime = new Map<number, number>();
  for (const r of rows) byTime.set(r.time, r.value);
  return [...byTime].sort((a, b) => a[0] - b[0]).map(([t, value]) => ({ time: t as UTCTimestamp, value }));
}

/** Hourly rates are ~1e-5: the scale needs a finer step than the default cent, and percent labels. */
const PERCENT_FORMAT = { type: 'custom' as const, minMove: 1e-9, formatter: (p: number) => `${(p * 100).toFixed(4)}%` };
/** Prices: as many decimals as the price's size needs (index prices run from ~1 to ~100,000). */
export function priceFormat(typical: number): { type: 'price'; precision: number; minMove: number } {
  const precision = typical >= 1_000 ? 2 : typical >= 1 ? 4 : 6;
  return { type: 'price', precision, minMove: 10 ** -precision };
}
/** USD amounts: compact labels (1.23M). */
const USD_FORMAT = { type: 'custom' as const, minMove: 0.01, formatter: compactNumber };

export function line(
  chart: IChartApi,
  color: string,
  title: string,
  data: { time: Time; value: number }[],
  opts: { steps?: boolean; scale?: 'left' | 'right'; format?: 'usd' | 'percent' | 'price' } = {},
): ISeriesApi<'Line'> {
  const series = chart.addSeries(LineSeries, {
    color,
    title,
    lineWidth: 2,
    priceScaleId: opts.scale ?? 'right',
    lineType: opts.steps ? LineType.WithSteps : LineType.Simple,
    priceLineVisible: false,
    priceFormat: opts.format === 'percent' ? PERCENT_FORMAT : opts.format === 'price' ? priceFormat(data[0]?.value ?? 1) : USD_FORMAT,
  });
  series.setData(data);
  return series;
}

export function area(chart: IChartApi, color: string, title: string, data: { time: Time; value: number }[]): ISeriesApi<'Area'> {
  const series = chart.addSeries(AreaSeries, { lineColor: color, topColor: `${color}55`, bottomColor: `${color}08`, title, lineWidth: 2, priceLineVisible: false, priceFormat: USD_FORMAT });
  series.setData(data);
  return series;
}

export function bars(chart: IChartApi, color: string, _title: string, data: { time: Time; value: number; color?: string }[], scale: 'left' | 'right' = 'right'): ISeriesApi<'Histogram'> {
  // no axis label: the last bucket's value says little about a histogram (the legend names it)
  const series = chart.addSeries(HistogramSeries, { color, title: '', priceScaleId: scale, priceLineVisible: false, lastValueVisible: false, priceFormat: USD_FORMAT });
  // an empty bucket keeps its place on the axis but draws nothing
  series.setData(data.map((d) => (d.value === 0 ? { ...d, color: 'rgba(0,0,0,0)' } : d)));
  return series;
}

export interface Candle {
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
}

export function candles(chart: IChartApi, rows: Candle[]): ISeriesApi<'Candlestick'> {
  const series = chart.addSeries(CandlestickSeries, {
    upColor: COLORS.long,
    downColor: COLORS.short,
    wickUpColor: COLORS.long,
    wickDownColor: COLORS.short,
    borderVisible: false,
    priceFormat: priceFormat(rows[0]?.close ?? 1),
  });
  series.setData(rows.map((r) => ({ time: toTime(r.time), open: r.open, high: r.high, low: r.low, close: r.close })));
  return series;
}

/**
 * `rows` with a zero row for every bucket from the first row to `to` that has none (volume and
 * liquidation histories omit empty buckets; bars are placed by index, so a gap must be a bar of 0).
 * Before the first row nothing is added, so the axis starts where the data does, as open interest's.
 */
export function withEmptyBuckets<T extends { time: string }>(rows: T[], to: string, stepMs: number, zero: (time: string) => T): T[] {
  if (rows.length === 0) return rows;
  const have = new Map(rows.map((r) => [Date.parse(r.time), r]));
  const out: T[] = [];
  for (let t = Date.parse(rows[0]!.time); t < Date.parse(to); t += stepMs) out.push(have.get(t) ?? zero(new Date(t).toISOString()));
  return out;
}

/** Puts markers on a series (sorted by time, as the library needs). */
export function markers(series: ISeriesApi<'Line' | 'Candlestick'>, list: SeriesMarker<Time>[]): void {
  createSeriesMarkers(
    series,
    [...list].sort((a, b) => (a.time as number) - (b.time as number)),
  );
}

/** A legend line under a chart: colored swatches with names. */
export function legend(entries: [color: string, name: string][]): HTMLElement {
  const el = document.createElement('div');
  el.className = 'legend';
  for (const [color, name] of entries) {
    const item = document.createElement('span');
    const swatch = document.createElement('i');
    swatch.style.background = color;
    item.append(swatch, name);
    el.append(item);
  }
  return el;
}
