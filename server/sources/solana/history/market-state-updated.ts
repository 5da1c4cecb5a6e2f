/**
 * alpha's `MarketStateUpdated` event: emitted by the store program on every commit of a market's
 * state (a trade, a deposit, a fee update), it carries the pools, clocks and other state that
 * changed, so a backfill that decodes it can rebuild a market's state at every such commit (the
 * history before account polling began). Layout (Borsh, after the event-CPI tag and the
 * discriminator) from gmsol-labs/gmx-solana programs/store/src/events/market.rs: rev u64, market
 * token, Vec<PoolKind> (u8 each), Vec<EventPool> (48 bytes), Vec<EventClocks> (80 bytes),
 * Vec<EventOtherState> (320 bytes).
 */
import type { AlphaMarketAccount, PoolAmounts } from '../accounts/alpha-market.ts';
import { ByteReader } from '../reader.ts';

/** sha256("event:MarketStateUpdated")[0..8], the scheme of the program's other events (alpha-events.md). */
export const MARKET_STATE_UPDATED_DISCRIMINATOR = 'd5cd28f571e63a12';
const POOL_SIZE = 48;
const CLOCKS_SIZE = 80;
const OTHER_SIZE = 320;
/** PoolKind has 16 variants (accounts.md §1b); a larger tag is not a PoolKind */
const POOL_KINDS = 16;

export interface MarketStateUpdated {
  rev: bigint;
  marketToken: string;
  /**
   * Updated pools by PoolKind. The Borsh tag of a PoolKind is taken to be its `#[repr(u8)]`
   * ordinal, i.e. the Market account's slot index (declaration order, accounts.md §1b).
   */
  pools: { kind: number; pool: PoolAmounts }[];
  clocks?: { borrowing: number; funding: number };
  other?: { tradeCount: bigint; fundingFactorPerSecond: bigint };
}

/** Decodes an event body; throws naming what does not fit. */
export function decodeMarketStateUpdated(body: Uint8Array): MarketStateUpdated {
  const r = new ByteReader(body, 'MarketStateUpdated');
  const need = (end: number, what: string) => {
    if (end > body.length) throw new Error(`MarketStateUpdated: ${what} runs past the ${body.length}-byte body`);
  };
  need(44, 'header');
  const rev = r.at(0).u64('rev');
  const marketToken = r.at(8).pubkey('marketToken');
  let at = 40;
  const kindsLen = r.at(at).u32('kindsLen');
  at += 4;
  need(at + kindsLen + 4, 'pool kinds');
  const kinds = Array.from(body.subarray(at, at + kindsLen));
  if (kinds.some((k) => k >= POOL_KINDS)) throw new Error(`MarketStateUpdated: pool kind ${Math.max(...kinds)} out of range`);
  at += kindsLen;
  const poolsLen = r.at(at).u32('poolsLen');
  at += 4;
  if (poolsLen !== kindsLen) throw new Error(`MarketStateUpdated: ${kindsLen} pool kinds but ${poolsLen} pools`);
  need(at + POOL_SIZE * poolsLen + 4, 'pools');
  const pools = kinds.map((kind, i) => {
    const p = at + POOL_SIZE * i;
    return { kind, pool: { isPure: r.at(p).u8('isPure') !== 0, long: r.at(p + 16).u128('long'), short: r.at(p + 32).u128('short') } };
  });
  at += POOL_SIZE * poolsLen;
  const clocksLen = r.at(at).u32('clocksLen');
  at += 4;
  need(at + CLOCKS_SIZE * clocksLen + 4, 'clocks');
  const clocks = clocksLen > 0 ? { borrowing: Number(r.at(at + 24).i64('borrowing')), funding: Number(r.at(at + 32).i64('funding')) } : undefined;
  at += CLOCKS_SIZE * clocksLen;
  const otherLen = r.at(at).u32('otherLen');
  at += 4;
  need(at + OTHER_SIZE * otherLen, 'other state');
  const other = otherLen > 0 ? { tradeCount: r.at(at + 24).u64('tradeCount'), fundingFactorPerSecond: r.at(at + 48).i128('fundingFactorPerSecond') } : undefined;
  return { rev, marketToken, pools, clocks, other };
}

/**
 * The market after the event: its pools, clocks and funding factor replaced by the event's. The
 * config is the one given (an event carries none), so rates computed from a rebuilt state use the
 * market's config of the time they are given.
 */
export function applyMarketStateUpdated(m: AlphaMarketAccount, ev: MarketStateUpdated): AlphaMarketAccount {
  const pools = [...m.pools];
  for (const { kind, pool } of ev.pools) pools[kind] = pool;
  return {
    ...m,
    pools,
    borrowingClock: ev.clocks?.borrowing ?? m.borrowingClock,
    fundingClock: ev.clocks?.funding ?? m.fundingClock,
    fundingFactorPerSecond: ev.other?.fundingFactorPerSecond ?? m.fundingFactorPerSecond,
  };
}
