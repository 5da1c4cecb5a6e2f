/**
 * A child process for the crash test: appends numbered fills (one lifecycle of open → close per
 * number pair) through the real append path, resuming from its source checkpoint, until it is
 * killed or reaches `total`. Usage: tsx test/helpers/append-loop.ts <dataDir> <total>
 */
import { openService } from '../../server/service.ts';
import { fill } from './fixtures.ts';

const [dataDir, totalArg] = process.argv.slice(2) as [string, string];
const total = Number(totalArg);
const service = await openService({ dataDir });
let next = (service.sourceCheckpoint('loop') as { next?: number } | undefined)?.next ?? 0;
const t0 = Date.UTC(2026, 5, 1);
while (next < total) {
  const fills = [];
  const end = Math.min(total, next + 2 + (next % 7) * 2); // batches of varying size, whole lifecycles
  for (let n = next; n < end; n++) {
    const pos = `P${Math.floor(n / 2)}`;
    const opening = n % 2 === 0;
    fills.push(
      fill({
        time: t0 + n * 60_000,
        tx: `loop-${n}`,
        position_key: pos,
        type: opening ? 'open' : 'close',
        size_delta_usd: opening ? 100 : -100,
        position_size_usd: opening ? 100 : 0,
        collateral_delta_usd: opening ? 10 : -10,
        position_collateral_usd: opening ? 10 : 0,
      }),
    );
  }
  await service.append({ fills, marketSnapshots: [], positionSnapshots: [], checkpoint: { next: end } }, { source: 'loop' });
  next = end;
  process.stdout.write(`${next}\n`);
}
await service.close();
