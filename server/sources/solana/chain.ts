/**
 * The collateral chain of open positions: position_collateral_usd of each position's last fill,
 * in micro-dollars, so that a fill's collateral_delta_usd = its collateral − the previous fill's
 * (the journal's definition; for collateral held in a volatile token it includes revaluation).
 * Loaded from the derived state at start, so a restarted indexer continues every chain.
 */
import type { Database } from '../../db/database.ts';
import type { IncomingFill, Protocol } from '../../journal/rows.ts';

export class CollateralChain {
  private readonly last = new Map<string, bigint>();

  /** The open lifecycles' collateral from the derived state. */
  static async load(db: Database): Promise<CollateralChain> {
    const chain = new CollateralChain();
    for (const r of await db.query('solana/open-collateral')) {
      chain.last.set(`${r.protocol as string}:${r.position_key as string}`, BigInt(r.collateral_micros as number));
    }
    return chain;
  }

  get(protocol: Protocol, key: string): bigint | undefined {
    return this.last.get(`${protocol}:${key}`);
  }

  /** Records a fill's collateral (a closed position drops out). */
  record(f: IncomingFill): void {
    const id = `${f.protocol}:${f.position_key}`;
    if (f.position_size_usd === 0) this.last.delete(id);
    else this.last.set(id, BigInt(Math.round(f.position_collateral_usd * 1e6)));
  }
}
