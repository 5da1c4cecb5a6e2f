/**
 * `poll` position snapshots of alpha from its Position accounts (layout: protocols.md), on the
 * full-refresh schedule: size and collateral as the account holds them, valued at the latest
 * oracle prices the indexer saw for the market (its last TradeEvent). Unsettled borrowing and
 * funding need the market's cumulative factors, whose place in the Market account protocols.md
 * does not give: they are written as 0 (as on `event` snapshots, right after a settlement).
 * beta's Position layout is not documented either: beta has no poll snapshots yet.
 */
import { getBase58Decoder } from '@solana/codecs';
import type { IncomingPositionSnapshot } from '../../journal/rows.ts';
import { readPositionState, type TradeEvent } from './alpha-events.ts';
import { bytesToBase58 } from './base58.ts';
import type { PositionChain } from './chain.ts';
import { ALPHA_PROGRAM, ALPHA_USD_DECIMALS } from './layout.ts';
import type { AlphaMarkets } from './markets.ts';
import { ByteReader } from './reader.ts';
import type { SolanaRpc } from './rpc.ts';
import type { TokenDecimals } from './tokens.ts';
import { alphaMidPrice, bytesToHex, microsToUsd, tokenValueMicros, usdMicros } from './units.ts';

/** alpha Position account (accounts.md §2): discriminator, size, and the offsets read here. */
const ALPHA_POSITION_DISC = 'aabc8fe47a40f7d0';
const POSITION_ACCOUNT = { size: 680, marketToken: 88, collateralToken: 120, state: 152 } as const;

/** The latest oracle prices seen per alpha market token (from TradeEvents). */
export class LatestPrices {
  private readonly byToken = new Map<string, TradeEvent['prices']>();
  record(ev: TradeEvent): void {
    this.byToken.set(ev.marketToken, ev.prices);
  }
  get(marketToken: string): TradeEvent['prices'] | undefined {
    return this.byToken.get(marketToken);
  }
}

/** The hour whose poll is due at `now` (polls run at minute 59 of each hour, like the simulator's). */
export function pollHour(now: number): number {
  return Math.floor((now + 60_000) / 3_600_000);
}

/** Snapshots of every open alpha position the journal knows, from its Position account. */
export async function pollAlphaPositions(
  rpc: SolanaRpc,
  deps: { markets: AlphaMarkets; prices: LatestPrices; chain: PositionChain; tokens: TokenDecimals },
  time: number,
): Promise<IncomingPositionSnapshot[]> {
  const disc = getBase58Decoder().decode(Uint8Array.from(Buffer.from(ALPHA_POSITION_DISC, 'hex')));
  const accounts = await rpc.getProgramAccounts(ALPHA_PROGRAM, disc);
  const out: IncomingPositionSnapshot[] = [];
  for (const a of accounts) {
    const d = a.data;
    if (d.length < POSITION_ACCOUNT.size || bytesToHex(d.subarray(0, 8)) !== ALPHA_POSITION_DISC) continue;
    if (deps.chain.get('alpha', a.pubkey) === undefined) continue; // not an open lifecycle of ours
    const marketToken = bytesToBase58(d.subarray(POSITION_ACCOUNT.marketToken, POSITION_ACCOUNT.marketToken + 32));
    const market = deps.markets.get(marketToken);
    const prices = deps.prices.get(marketToken);
    if (!market || !prices) continue;
    const indexDecimals = deps.tokens.get(market.indexMint);
    if (indexDecimals === undefined) continue;
    const state = readPositionState(new ByteReader(d.subarray(POSITION_ACCOUNT.state, POSITION_ACCOUNT.state + 272), 'Position.state'), 'state');
    const collMint = bytesToBase58(d.subarray(POSITION_ACCOUNT.collateralToken, POSITION_ACCOUNT.collateralToken + 32));
    const collPrice = collMint === market.longMint ? prices.long.min : prices.short.min;
    out.push({
      time,
      protocol: 'alpha',
      position_key: a.pubkey,
      size_usd: microsToUsd(usdMicros(state.sizeInUsd, ALPHA_USD_DECIMALS)),
      collateral_usd: microsToUsd(tokenValueMicros(state.collateralAmount, collPrice)),
      unsettled_borrowing_usd: 0,
      unsettled_funding_usd: 0,
      claimable_funding_usd: 0,
      mark_price: alphaMidPrice(prices.index, indexDecimals),
      liquidation_price: null,
      source: 'poll',
    });
  }
  return out;
}
