import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Database } from '../../db/database.ts';
import { sqlFile } from '../../db/sql-files.ts';
import type { IncomingBatch, IncomingFill, IncomingPositionSnapshot, JournalKind, MarketSnapshot } from '../../journal/rows.ts';

const KINDS: JournalKind[] = ['fills', 'market_snapshots', 'position_snapshots'];
const SQL_OF: Record<JournalKind, string> = { fills: 'replay/fills', market_snapshots: 'replay/market-snapshots', position_snapshots: 'replay/position-snapshots' };

/**
 * The journal root of a replay source: `<dir>/journal` when `dir` is a data directory, else `dir`
 * itself (a journal directory or a copied partition set: `fills/protocol=…/day=…/*.parquet`, …).
 */
export function replayRoot(dir: string): string {
  const abs = resolve(dir);
  const nested = join(abs, 'journal');
  const root = existsSync(nested) ? nested : abs;
  if (!KINDS.some((k) => existsSync(join(root, k)))) {
    throw new Error(`replay: ${dir} holds no journal (expected fills/, market_snapshots/ or position_snapshots/ partitions)`);
  }
  return root;
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Reads a journal on disk (any copy of the public layout) in time windows, as incoming rows. */
export class ReplayReader {
  readonly root: string;
  private readonly globs = new Map<JournalKind, string>();

  constructor(
    private readonly db: Database,
    dir: string,
  ) {
    this.root = replayRoot(dir);
    for (const k of KINDS) {
      if (existsSync(join(this.root, k))) this.globs.set(k, `'${join(this.root, k, '*', '*', '*.parquet').replaceAll("'", "''")}'`);
    }
  }

  private async rows(kind: JournalKind, name: string, params: Record<string, string | number>): Promise<Record<string, unknown>[]> {
    const glob = this.globs.get(kind);
    if (!glob) return [];
    try {
      return await this.db.querySql(sqlFile(name).replaceAll('__GLOB__', glob), params);
    } catch (err) {
      if (/No files found/i.test(String(err))) return []; // a kind directory without files yet
      throw err;
    }
  }

  /** First and last row time (epoch ms) over every kind; undefined for an empty journal. */
  async range(): Promise<{ first: number; last: number } | undefined> {
    let first = Infinity;
    let last = -Infinity;
    for (const k of KINDS) {
      const [r] = await this.rows(k, 'replay/range', {});
      if (r?.first_ms == null) continue;
      first = Math.min(first, Number(r.first_ms));
      last = Math.max(last, Number(r.last_ms));
    }
    return Number.isFinite(first) ? { first, last } : undefined;
  }

  /** Every row with `from <= time < to` (epoch ms), each kind in time order (then journal order). */
  async read(from: number, to: number): Promise<IncomingBatch> {
    const params = { from_ms: from, to_ms: to, from_day: day(from), to_day: day(to) };
    const [fills, marketSnapshots, positionSnapshots] = await Promise.all(KINDS.map((k) => this.rows(k, SQL_OF[k], params)));
    return {
      fills: fills as unknown as IncomingFill[],
      marketSnapshots: marketSnapshots as unknown as MarketSnapshot[],
      positionSnapshots: positionSnapshots as unknown as IncomingPositionSnapshot[],
    };
  }
}
