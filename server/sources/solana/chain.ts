/**
 * What a fill needs from the position's earlier fills: collateral, size and the running entry of
 * its open lifecycle. collateral_delta_usd = this fill's collateral − the previous fill's (the
 * journal's definition); entry_price = the size-weighted average of the lifecycle's increase
 * prices so far (the contract's one definition, shared/design/contract.md §6, for every source).
 * Loaded from the derived state at start, so a restarted indexer continues every position.
 */
import type { Database } from '../../db/database.ts';
import type { IncomingFill, Protocol } from '../../journal/rows.ts';

export interface PositionRunning {
  collateralMicros: bigint;
  sizeMicros: bigint;
  /** Σ size of the lifecycle's increases (open included), micro-dollars */
  increasedMicros: bigint;
  /** Σ increase size × price, USD² (a double: prices are doubles) */
  increasedNotional: number;
}

export class PositionChain {
  private readonly last = new Map<string, PositionRunning>();

  /** The open lifecycles' last state from the derived tables. */
  static async load(db: Database): Promise<PositionChain> {
    const chain = new PositionChain();
    for (const r of await db.query('solana/open-positions-running')) {
      const increasedMicros = BigInt(r.increased_micros as number);
      chain.last.set(`${r.protocol as string}:${r.position_key as string}`, {
        collateralMicros: BigInt(r.collateral_micros as number),
        sizeMicros: BigInt(r.size_micros as number),
        increasedMicros,
        increasedNotional: (r.entry_price as number) * (Number(increasedMicros) / 1e6),
      });
    }
    return chain;
  }

  get(protocol: Protocol, key: string): PositionRunning | undefined {
    return this.last.get(`${protocol}:${key}`);
  }

  /**
   * The entry price after a fill that changes the size by `deltaMicros` at `price`, given the
   * lifecycle's state before it (undefined for an open, or a position first seen mid-lifecycle).
   */
  static entryAfter(before: PositionRunning | undefined, deltaMicros: bigint, price: number, fallbackEntry: number): number {
    if (deltaMicros > 0n) {
      const up = (before?.increasedMicros ?? 0n) + deltaMicros;
      const notional = (before?.increasedNotional ?? 0) + price * (Number(deltaMicros) / 1e6);
      return notional / (Number(up) / 1e6);
    }
    if (before && before.increasedMicros > 0n) return before.increasedNotional / (Number(before.increasedMicros) / 1e6);
    return fallbackEntry;
  }

  /** Records a fill (a closed position drops out). */
  record(f: IncomingFill): void {
    const id = `${f.protocol}:${f.position_key}`;
    if (f.position_size_usd === 0) {
      this.last.delete(id);
      return;
    }
    const before = f.type === 'open' ? undefined : this.last.get(id);
    const delta = BigInt(Math.round(f.size_delta_usd * 1e6));
    const up = delta > 0n ? delta : 0n;
    this.last.set(id, {
      collateralMicros: BigInt(Math.round(f.position_collateral_usd * 1e6)),
      sizeMicros: BigInt(Math.round(f.position_size_usd * 1e6)),
      increasedMicros: (before?.increasedMicros ?? 0n) + up,
      increasedNotional: (before?.increasedNotional ?? 0) + f.price * (Number(up) / 1e6),
    });
  }
}
