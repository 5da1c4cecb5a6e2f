/**
 * How long staging a live append holds the event loop: `npm run bench:stage-blocking --
 * [--data DIR] [--rows 15] [--rounds 4]`. On a copy-free open of a journal's state (default the
 * bench's, /tmp/perps-bench), while a reader scans `fills` on another connection (DuckDB busy, as
 * in a serving process), stages `--rows` fills 20 times by the appender, by one statement
 * (server/journal/stage.ts), and not at all (a control: the same awaits with a timer), rounds
 * alternating, and prints the event loop's delay (perf_hooks' monitorEventLoopDelay, 1 ms
 * resolution): max, p99 and mean per run. Then, with DuckDB otherwise idle, the time to stage
 * blocks of 15 to 1,024 fills each way (median of 9): where the statement stops paying
 * (server/journal/stage.ts STATEMENT_ROWS). Nothing is committed: the staging tables only.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { toColumns } from '../ingest/columns.ts';
import { resetStaging, stageBlock, STAGING, type StageVia } from '../journal/stage.ts';
import { openService } from '../service.ts';

const { values: args } = parseArgs({
  options: { data: { type: 'string' }, rows: { type: 'string', default: '15' }, rounds: { type: 'string', default: '4' } },
});
const dataDir = args.data ?? process.env.BENCH_DATA ?? '/tmp/perps-bench';
if (!existsSync(join(dataDir, 'state.duckdb'))) {
  console.error(`${dataDir} has no derived state: \`npm run bench\` builds one there (or pass --data DIR)`);
  process.exit(2);
}
const service = await openService({ dataDir });
const [latest] = await service.db.querySql('SELECT * FROM fills ORDER BY seq DESC LIMIT 1');
/** A block of `n` fills like the journal's newest. */
const blockOf = (n: number) =>
  toColumns(
    Array.from({ length: n }, (_, i) => ({ ...latest, time: Date.parse(String(latest!.time)), seq: 1e12 + i })),
    STAGING.batch_fills.filter(([name]) => name !== 'ord_row'),
  );
const block = blockOf(Number(args.rows));

console.log(`event loop delay while staging ${block.length} fills 20 times beside a scan of fills (${dataDir})`);
console.log('how          max ms   p99 ms  mean ms');
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const how of ['appender', 'statement', 'none'] as const) {
      const h = monitorEventLoopDelay({ resolution: 1 });
      const busy = service.db.querySql('SELECT sum(price), count(DISTINCT address) FROM fills');
      h.enable();
      await service.db.write(async (w) => {
        for (let i = 0; i < 20; i++) {
          await resetStaging(w);
          if (how === 'none') await new Promise((r) => setTimeout(r, 10));
          else await stageBlock(w.connection, 'batch_fills', block, 1, how satisfies StageVia);
        }
        await resetStaging(w);
      });
      h.disable();
      await busy;
      const ms = (ns: number) => (ns / 1e6).toFixed(2).padStart(8);
      console.log(`${how.padEnd(10)} ${ms(h.max)} ${ms(h.percentile(99))} ${ms(h.mean)}`);
    }
  }
  console.log('\nstaging time by block size, DuckDB otherwise idle (median of 9)');
  console.log('rows    appender ms  statement ms');
  for (const n of [15, 32, 64, 128, 1024]) {
    const sized = blockOf(n);
    const median = async (via: StageVia): Promise<string> => {
      const ms: number[] = [];
      await service.db.write(async (w) => {
        for (let r = 0; r < 9; r++) {
          await resetStaging(w);
          const t0 = performance.now();
          await stageBlock(w.connection, 'batch_fills', sized, 1, via);
          ms.push(performance.now() - t0);
        }
        await resetStaging(w);
      });
      return ms
        .sort((a, b) => a - b)[4]!
        .toFixed(2)
        .padStart(12);
    };
    console.log(`${String(n).padEnd(6)} ${await median('appender')}  ${await median('statement')}`);
  }
} finally {
  await service.close();
}
