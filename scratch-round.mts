import { DuckDBInstance, DOUBLE, DuckDBDataChunk } from '@duckdb/node-api';
const i = await DuckDBInstance.create(':memory:');
const c = await i.connect();
// candidates: random 6-decimal values, half-micro boundaries, random doubles, negatives
const xs: number[] = [];
const r = () => Math.random();
for (let k = 0; k < 200000; k++) {
  const big = Math.floor(r() * 1e9);
  xs.push((big + 0.5) / 1e6, -(big + 0.5) / 1e6, big / 1e6, -big / 1e6, (r() - 0.5) * 1e6, (r() - 0.5) * 10, (Math.floor(r() * 1e12) + 0.5) / 1e6);
}
xs.push(0.0000005, -0.0000005, 2.0000005, -2.0000025, 1e-7, -1e-7, 0.1 + 0.2, 1234567.8900005);
await c.run('CREATE TABLE t (i INTEGER, x DOUBLE)');
const ap = await c.createAppender('t');
xs.forEach((x, k) => { ap.appendInteger(k); ap.appendDouble(x); ap.endRow(); });
ap.closeSync();
const rows = (await c.runAndReadAll(`SELECT i, round(x::DECIMAL(18,6)::DOUBLE * 1000000) AS m FROM t ORDER BY i`)).getRows();
const js = (x: number) => { const p = x * 1e6; return Math.sign(p) * Math.round(Math.abs(p)); };
let bad = 0;
for (const [k, m] of rows) { const x = xs[Number(k)]!; if (js(x) !== Number(m) && !(js(x) === 0 && Number(m) === 0)) { if (bad++ < 8) console.log('mismatch', x, js(x), m); } }
console.log('values', xs.length, 'mismatches', bad);
