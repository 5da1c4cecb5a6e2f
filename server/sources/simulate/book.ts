/**
 * The book of open lifecycles: by lifecycle id (in id order, the deterministic iteration order),
 * by on-chain position (a trader never has two open lifecycles on one key), and by variant side
 * for the keeper. Also derives position keys, which depend only on owner, market, collateral
 * token and side (like the PDA), so a reopened position reuses its key.
 */
import { positionKey } from './ids.ts';
import { SideLists } from './keeper.ts';
import type { CollateralOption, VariantDef } from './markets.ts';
import { cumulativeOf } from './mechanics.ts';
import type { Pools } from './pools.ts';
import type { Position } from './types.ts';

/**
 * A number naming the on-chain position (owner, variant, collateral, side). Within a variant the
 * collateral token is told apart by whether it is the index token: alpha pools have at most two
 * tokens (one of them possibly the index token) and beta fixes the collateral per side.
 */
function comboKey(owner: number, v: number, indexToken: boolean, long: boolean): number {
  return ((owner * 16 + v) * 2 + (indexToken ? 1 : 0)) * 2 + (long ? 1 : 0);
}

export class PositionBook {
  /** open lifecycles by id; insertion order is id order (ids only grow) */
  readonly open = new Map<number, Position>();
  readonly lists = new SideLists();
  private readonly byCombo = new Map<number, Position>();
  private readonly keyCache = new Map<number, string>();

  constructor(
    private readonly seed: number,
    private readonly addressOf: (owner: number) => string,
    /** next lifecycle id (part of the saved state) */
    public nextId: number,
    /** keys are cached for owners below this (the regulars, who come back); tourists' are not */
    private readonly cacheBelow = Infinity,
  ) {}

  /** The open lifecycle on the on-chain position, if any. */
  find(owner: number, v: number, coll: CollateralOption, long: boolean): Position | undefined {
    return this.byCombo.get(comboKey(owner, v, coll.indexToken, long));
  }

  /** A new, empty lifecycle (size 0) on the on-chain position, settled to the current factors. */
  create(pools: Pools, owner: number, def: VariantDef, coll: CollateralOption, long: boolean, lev: number, t: number): Position {
    const [cumB, cumFP, cumFE] = cumulativeOf(pools.variants[def.idx]!, long);
    const pos: Position = {
      id: this.nextId++,
      key: this.keyFor(owner, def, coll, long),
      owner,
      v: def.idx,
      long,
      coll: coll.token,
      tokenColl: coll.indexToken,
      size: 0,
      amount: 0,
      reported: 0,
      entry: 0,
      increased: 0,
      increaseEntry: 0,
      cumB,
      cumFP,
      cumFE,
      lev,
      openedAt: t,
      bound: 0,
      listIdx: -1,
    };
    this.insert(pos);
    return pos;
  }

  /** Adds an open lifecycle (also used on restore, in id order). */
  insert(pos: Position): void {
    this.open.set(pos.id, pos);
    this.byCombo.set(comboKey(pos.owner, pos.v, pos.tokenColl, pos.long), pos);
    this.lists.add(pos);
  }

  /** Removes a lifecycle that closed or was liquidated. */
  remove(pos: Position): void {
    this.open.delete(pos.id);
    this.byCombo.delete(comboKey(pos.owner, pos.v, pos.tokenColl, pos.long));
    this.lists.remove(pos);
  }

  private keyFor(owner: number, def: VariantDef, coll: CollateralOption, long: boolean): string {
    const combo = comboKey(owner, def.idx, coll.indexToken, long);
    let key = this.keyCache.get(combo);
    if (key === undefined) {
      key = positionKey(this.seed, this.addressOf(owner), def.variant ?? def.market, coll.token, long ? 'long' : 'short');
      if (owner < this.cacheBelow) this.keyCache.set(combo, key);
    }
    return key;
  }
}
