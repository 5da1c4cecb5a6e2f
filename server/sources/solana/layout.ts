/**
 * Every on-chain fact the solana source relies on, in one place (shared/design/protocols.md).
 *
 * Facts marked (inferred) are not stated by protocols.md, or are marked inferred there: a
 * correction is one edit here. Binary layouts are @solana/codecs decoders built field by field
 * from the documented order (little-endian; Borsh `Option<T>` = a u8 tag then T).
 */
import {
  createDecoder,
  fixDecoderSize,
  getBooleanDecoder,
  getBytesDecoder,
  getI128Decoder,
  getI64Decoder,
  getNullableDecoder,
  getStructDecoder,
  getU128Decoder,
  getU64Decoder,
  getU8Decoder,
  type Decoder,
} from '@solana/codecs';
import { bytesToBase58 } from './base58.ts';

export const ALPHA_PROGRAM = 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo';
export const ALPHA_STORE = 'CTDLvGGXnoxvqLyTpGzdGLg9pD6JexKxKXSV8tqqo8bN';
export const BETA_PROGRAM = 'PERPHjGBqRHArX4DySjwM6UJHiR3sWAatqfdBS2qQJu';

/** Anchor's event-CPI tag: the first 8 bytes of a self-CPI instruction that carries an event. */
export const EVENT_CPI_TAG = 'e445a52e51cb9a1d';

/** Event discriminators (hex); beta's are sha256("event:<Name>")[0..8] (legacy Anchor). */
export const ALPHA_EVENTS = {
  TradeEvent: 'bddb7fd34ee661ee',
  PositionIncreased: '493af7b564edf951',
  PositionDecreased: 'fb9725cc7f5773e8',
  OrderRemoved: '549b798ef0eb9017',
} as const;
export const BETA_EVENTS = {
  IncreasePositionEvent: 'f5715534d6bb9984',
  DecreasePositionEvent: '409c2b4a6d83107f',
  InstantIncreasePositionEvent: 'cdec3904d16a5745',
  InstantDecreasePositionEvent: 'abad6a19efbe3a3b',
  LiquidateFullPositionEvent: '806547a880485654',
} as const;

/** Account discriminators: Position (protocols.md); Market = sha256("account:Market")[0..8] (inferred). */
export const ALPHA_POSITION_DISC = 'aabc8fe47a40f7d0';
export const ALPHA_MARKET_DISC = 'dbbed53700e3c69a';
/** Market account: 64-byte name at 24; the market token mint right after it, at 88 (inferred). */
export const MARKET_NAME_OFFSET = 24;
export const MARKET_TOKEN_OFFSET = 88;
/** Position account (680 bytes): kind at 42 (1 long, 2 short), owner 56, market token 88, collateral token 120, state at 152. */
export const POSITION_ACCOUNT = { size: 680, kind: 42, owner: 56, marketToken: 88, collateralToken: 120, state: 152 } as const;

/** alpha: USD values carry 20 decimals; beta: 6. */
export const ALPHA_USD_DECIMALS = 20;
export const BETA_USD_DECIMALS = 6;

/**
 * Decimals of alpha index tokens by the symbol market names use (inferred: the mints' decimals;
 * the synthetic XAU, NVDA, EUR are assumed at 8). Prices are per smallest unit × 1e20, so the
 * index token's decimals turn them into USD per token; collateral is valued from unit prices
 * and needs none. A market whose index is not listed is skipped with a warning.
 */
export const TOKEN_DECIMALS: Record<string, number> = {
  WSOL: 9, SOL: 9, USDC: 6, USDT: 6, WBTC: 8, BTC: 8, WETH: 8, ETH: 8, XAU: 8, NVDA: 8, EUR: 8,
  JUP: 6, BONK: 5, WIF: 6, JTO: 9, PYTH: 6, RAY: 6, TRUMP: 6,
};

/** Well-known token mints → the symbols alpha market names use (for a Position's collateral token). */
export const TOKEN_MINTS: Record<string, string> = {
  So11111111111111111111111111111111111111112: 'WSOL',
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: 'USDC',
};

/** alpha order kinds as OrderRemoved encodes them (inferred enum order). */
export const ALPHA_ORDER_KINDS = [
  'Liquidation', 'AutoDeleveraging', 'MarketSwap', 'MarketIncrease', 'MarketDecrease',
  'LimitSwap', 'LimitIncrease', 'LimitDecrease', 'StopLossDecrease',
] as const;

/**
 * beta custody accounts → token symbol (inferred: Jupiter's mainnet JLP custodies). A custody
 * not listed here is reported by its address and its fills are skipped with a warning.
 */
export const BETA_CUSTODIES: Record<string, string> = {
  '7xS2gz2bTp3fwCC7knJvUWTEU9Tycczu6VhJYKgi1wdz': 'SOL',
  AQCGyheWPLeo6Qp9WpYS9m3Qj479t7R636N9ey1rEjEn: 'ETH',
  '5Pv3gM9JrFFH883SWAhvJC9RPYmo8UNxuFtv5bMMALkm': 'BTC',
  G18jKKXQwBbrHeiK3C9MRXhkHsLHf7XgCSisykV46EZa: 'USDC',
  '4vkNeXiYEUizLdrpdPS1eC2mccyM4NUPRtERrk6ZETkk': 'USDT',
};

// ---------------------------------------------------------------------------------------------
// Decoders
// ---------------------------------------------------------------------------------------------

/** A 32-byte public key as base58 (our base58: the library's is BigInt-based and slow, see base58.ts). */
const pubkey = createDecoder<string, 32>({
  fixedSize: 32,
  read: (bytes, offset) => [bytesToBase58(bytes.subarray(offset, offset + 32)), offset + 32],
});
const u8 = getU8Decoder();
const u64 = getU64Decoder();
const i64 = getI64Decoder();
const u128 = getU128Decoder();
const i128 = getI128Decoder();
const pad = (n: number) => fixDecoderSize(getBytesDecoder(), n);

/** Position state (TradeEvent before / after, Position account at 152): 272 bytes. */
export const positionStateDecoder = getStructDecoder([
  ['tradeId', u64],
  ['increasedAt', i64],
  ['updatedAtSlot', u64],
  ['decreasedAt', i64],
  ['sizeInTokens', u128],
  ['collateralAmount', u128],
  ['sizeInUsd', u128],
  ['borrowingFactor', u128],
  ['fundingFeeAmountPerSize', u128],
  ['longTokenClaimableFundingAmountPerSize', u128],
  ['shortTokenClaimableFundingAmountPerSize', u128],
  ['reserved', pad(128)],
]);

const minMax = getStructDecoder([['min', u128], ['max', u128]]);

/** alpha TradeEvent body (after tag and discriminator), in protocols.md's order. */
export const tradeEventDecoder = getStructDecoder([
  ['flags', u8],
  ['padding0', pad(7)],
  ['tradeId', u64],
  ['authority', pubkey],
  ['store', pubkey],
  ['marketToken', pubkey],
  ['user', pubkey],
  ['position', pubkey],
  ['order', pubkey],
  ['finalOutputToken', pubkey],
  ['ts', i64],
  ['slot', u64],
  ['before', positionStateDecoder],
  ['after', positionStateDecoder],
  ['transferOut', getStructDecoder([['executed', u8], ['padding', pad(7)], ['amounts', pad(64)]])],
  ['padding1', pad(8)],
  ['prices', getStructDecoder([['index', minMax], ['long', minMax], ['short', minMax]])],
  ['executionPrice', u128],
  ['priceImpactValue', i128],
  ['priceImpactDiff', u128],
  ['pnl', getStructDecoder([['pnl', i128], ['uncappedPnl', i128]])],
  [
    'fees',
    getStructDecoder([
      ['orderFeeForReceiver', u128],
      ['orderFeeForPool', u128],
      ['liquidationFee', u128],
      ['liquidationFeeForReceiver', u128],
      ['totalBorrowingFee', u128],
      ['borrowingFeeForReceiver', u128],
      ['fundingFee', u128],
      ['claimableFundingLong', u128],
      ['claimableFundingShort', u128],
    ]),
  ],
  ['outputAmounts', getStructDecoder([['first', u128], ['second', u128]])],
]);
export type TradeEvent = ReturnType<typeof tradeEventDecoder.decode>;

/**
 * PositionIncreased / PositionDecreased body (inferred: protocols.md gives only their purpose):
 * revision, market token, position, then the USD values (20 decimals) of the fees settled;
 * PositionDecreased appends the realised PnL (i128, USD).
 */
const positionFeeFields = [
  ['rev', u64],
  ['marketToken', pubkey],
  ['position', pubkey],
  ['orderFeeValue', u128],
  ['borrowingFeeValue', u128],
  ['fundingFeeValue', u128],
  ['liquidationFeeValue', u128],
  ['claimableFundingValue', u128],
] as const;
export const positionIncreasedDecoder = getStructDecoder([...positionFeeFields]);
export const positionDecreasedDecoder = getStructDecoder([...positionFeeFields, ['pnlValue', i128]]);
export type PositionFeeValues = ReturnType<typeof positionIncreasedDecoder.decode>;

/** OrderRemoved body (inferred): id, ts, slot, store, order, kind (u8, ALPHA_ORDER_KINDS), market token, owner. */
export const orderRemovedDecoder = getStructDecoder([
  ['id', u64],
  ['ts', i64],
  ['slot', u64],
  ['store', pubkey],
  ['order', pubkey],
  ['kind', u8],
  ['marketToken', pubkey],
  ['owner', pubkey],
]);

/**
 * beta position event body (inferred order, from the field list of protocols.md): the five
 * events share this head; decreases add the PnL with its has-profit flag, the liquidation adds
 * the liquidation fee. All amounts u64 at 6 decimals; the borrow and price-impact fees are
 * Borsh options. `positionCollateralUsd` and `positionPrice` (the average entry) are the
 * position's state after the event.
 */
const betaHead = [
  ['positionKey', pubkey],
  ['positionSide', u8],
  ['custody', pubkey],
  ['collateralCustody', pubkey],
  ['owner', pubkey],
  ['sizeUsdDelta', u64],
  ['positionSizeUsd', u64],
  ['collateralUsdDelta', u64],
  ['positionCollateralUsd', u64],
  ['price', u64],
  ['positionPrice', u64],
  ['feeUsd', u64],
  ['positionFeeUsd', u64],
  ['fundingFeeUsd', getNullableDecoder(u64)],
  ['priceImpactFeeUsd', getNullableDecoder(u64)],
] as const;
export const betaIncreaseDecoder = getStructDecoder([...betaHead]);
export const betaDecreaseDecoder = getStructDecoder([...betaHead, ['hasProfit', getBooleanDecoder()], ['pnlDelta', u64]]);
export const betaLiquidateDecoder = getStructDecoder([
  ...betaHead,
  ['hasProfit', getBooleanDecoder()],
  ['pnlDelta', u64],
  ['liquidationFeeUsd', u64],
]);
export type BetaEventBody = ReturnType<typeof betaLiquidateDecoder.decode>;

/**
 * Decodes a body. Missing bytes are an error naming the event; trailing bytes are allowed (a
 * program upgrade that appends fields keeps the documented prefix readable).
 */
export function decodeBody<T>(decoder: Decoder<T>, bytes: Uint8Array, what: string): T {
  try {
    return decoder.read(bytes, 0)[0];
  } catch (err) {
    throw new Error(`${what}: cannot decode ${bytes.length} bytes (${(err as Error).message})`);
  }
}
