/** The bench's writer of docs/performance.md: the block is there to rewrite, and routes are named by path. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PERFORMANCE_DOC, performanceBlock, routeOf, type BenchReport } from '../../server/bench/performance-doc.ts';
import { fillBlocks } from '../../server/docs/write-api-md.ts';

const ADDRESS = 'AddrA111111111111111111111111111111111111111';

describe('docs/performance.md writer', () => {
  it('names a request by its route', () => {
    expect(routeOf('/v1/alpha/volume/history?interval=1h&market=SOL-PERP')).toBe('/v1/alpha/volume/history');
    expect(routeOf(`/v1/alpha/accounts/${ADDRESS}/history?limit=5`)).toBe('/v1/alpha/accounts/{address}/history');
    expect(routeOf(`/v1/alpha/positions/${ADDRESS}/123/lifecycle`)).toBe('/v1/alpha/positions/{address}/{id}/lifecycle');
  });

  it("fills the page's bench block with the report's figures", () => {
    const report: BenchReport = {
      at: '2030-01-02T03:04:05.000Z',
      journal: { fills: 1000, accounts: 10, open_positions: 2 },
      cold_start_s: 1.5,
      rss_mib: { now: 900, peak: 1000 },
      endpoints: { a: { route: '/v1/protocols', requests: 100, p50_ms: 0.5, p99_ms: 12.25, first_p99_ms: 3, max_ms: 13, req_per_s: 900, server_cpu_ms_per_req: 0.3 } },
      throughput: { hello: { req_per_s: 40000, p99_ms: 3, server_cpu_us_per_req: 20 } },
      ratios_pct_of_hello: { mixed: 50, repeated: 70 },
      targets: { endpoint_p99_le_10ms: false, cold_start_le_10s: true },
    };
    const page = fillBlocks(readFileSync(PERFORMANCE_DOC, 'utf8'), { bench: performanceBlock(report) }, 'npm run bench');
    expect(page).toContain('| each endpoint p99 ≤ 10 ms after warm-up | worst 12.25 ms | missed |');
    expect(page).toContain('| `/v1/protocols` | 100 | 0.50 | 12.25 | 3.00 | 13.0 | 0.30 |');
    expect(page).toContain('1,000 fills');
  });
});
