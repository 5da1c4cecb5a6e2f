/**
 * Every on-chain constant the solana source relies on, in one place, with where it comes from
 * (shared/design/solana/: alpha-events.md, accounts.md §7, oracle-prices.md §2c). A fact the
 * design docs mark UNCONFIRMED is named here with its doubt, so a correction is one edit. The
 * byte layouts themselves are read field by field in alpha-events.ts and beta-events.ts.
 */

export const ALPHA_PROGRAM = 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo';
export const ALPHA_STORE = 'CTDLvGGXnoxvqLyTpGzdGLg9pD6JexKxKXSV8tqqo8bN';
export const BETA_PROGRAM = 'PERPHjGBqRHArX4DySjwM6UJHiR3sWAatqfdBS2qQJu';

/** Mainnet-beta's genesis hash (solana-labs `genesis_config.rs`): the start-up check's chain identity. */
export const MAINNET_GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';

/**
 * The event authorities: the one account of every event self-CPI, a PDA of ["__event_authority"]
 * (alpha-events.md §0; accounts.md §6 for beta). An inner instruction with the tag but another
 * account is not an event of the program.
 */
export const EVENT_AUTHORITY: Record<string, string> = {
  Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo: '8a4wJ2bMiH6XWDZ7biTnejkss8VG7GMwd9Mg6F5fDfHF',
  PERPHjGBqRHArX4DySjwM6UJHiR3sWAatqfdBS2qQJu: '37hJBDnntwqhGbK7L6M1bLyvccj4u55CCUiLPdYkiqBN',
};

/** Anchor's event-CPI tag (`EVENT_IX_TAG_LE`): the first 8 bytes of a self-CPI that carries an event. */
export const EVENT_CPI_TAG = 'e445a52e51cb9a1d';

/** alpha event discriminators (alpha-events.md §0). */
export const ALPHA_EVENTS = {
  TradeEvent: 'bddb7fd34ee661ee',
  PositionIncreased: '493af7b564edf951',
  PositionDecreased: 'fb9725cc7f5773e8',
  OrderRemoved: '549b798ef0eb9017',
} as const;

/** beta event discriminators: sha256("event:<Name>")[0..8] (accounts.md §7). */
export const BETA_EVENTS = {
  IncreasePositionEvent: 'f5715534d6bb9984',
  DecreasePositionEvent: '409c2b4a6d83107f',
  InstantIncreasePositionEvent: 'cdec3904d16a5745',
  InstantDecreasePositionEvent: 'abad6a19efbe3a3b',
  LiquidateFullPositionEvent: '806547a880485654',
} as const;

/** alpha outer-instruction discriminators that mark a fill's kind (alpha-events.md §5). */
export const ALPHA_INSTRUCTIONS = {
  liquidate: 'dfb3e27d302e274a',
  autoDeleverage: 'd245a3942cf5e2aa',
} as const;

/** alpha `OrderKind` in declaration order = its Borsh variant index (alpha-events.md §4). */
export const ALPHA_ORDER_KINDS = ['Liquidation', 'AutoDeleveraging', 'MarketSwap', 'MarketIncrease', 'MarketDecrease', 'LimitSwap', 'LimitIncrease', 'LimitDecrease', 'StopLossDecrease'] as const;
export type AlphaOrderKind = (typeof ALPHA_ORDER_KINDS)[number];

/** TradeEvent flag bits (alpha-events.md §1b, confirmed). */
export const TRADE_FLAGS = { isLong: 1, collateralIsLong: 2, isIncrease: 4 } as const;

/** alpha Market account (accounts.md §1): discriminator, name, the four mints of `meta`. */
export const ALPHA_MARKET = {
  disc: 'dbbed53700e3c69a',
  name: 24,
  marketToken: 88,
  indexToken: 120,
  longToken: 152,
  shortToken: 184,
  minLength: 216,
} as const;

/** alpha Store and token map (oracle-prices.md §2c): where token decimals for unit prices live. */
export const ALPHA_STORE_ACCOUNT = { disc: '8230f7f4b6bf1e1a', tokenMap: 4568 } as const;
export const ALPHA_TOKEN_MAP = {
  disc: '6b2b1b18f53e917e',
  /** 256 entries of { key (mint) [u8;32], value (config index) u8 } */
  entries: 48,
  entrySize: 33,
  maxEntries: 256,
  count: 8496,
  /** TokenConfig i at configs + configSize × i; its `token_decimals` at +33 */
  configs: 8564,
  configSize: 328,
  configDecimals: 33,
} as const;

/** SPL Token mint (spl-token `state.rs`, Pack layout): decimals u8 at 44, is_initialized at 45, 82 bytes. */
export const SPL_MINT = { decimals: 44, initialized: 45, length: 82 } as const;
export const TOKEN_PROGRAMS = new Set(['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb']);

/** alpha: USD values and unit prices carry 20 decimals (beta's 6 are the journal's own). */
export const ALPHA_USD_DECIMALS = 20;

/**
 * beta custody accounts → token symbol (accounts.md §6, from Jupiter's constants and docs).
 * UNCONFIRMED: whether the pool now has a sixth custody (its address was found nowhere). A fill
 * of a custody not listed here is quarantined with that reason, never skipped silently.
 */
export const BETA_CUSTODIES: Record<string, string> = {
  '7xS2gz2bTp3fwCC7knJvUWTEU9Tycczu6VhJYKgi1wdz': 'SOL',
  AQCGyheWPLeo6Qp9WpYS9m3Qj479t7R636N9ey1rEjEn: 'ETH',
  '5Pv3gM9JrFFH883SWAhvJC9RPYmo8UNxuFtv5bMMALkm': 'BTC',
  G18jKKXQwBbrHeiK3C9MRXhkHsLHf7XgCSisykV46EZa: 'USDC',
  '4vkNeXiYEUizLdrpdPS1eC2mccyM4NUPRtERrk6ZETkk': 'USDT',
};

/** The custody whose borrow rate beta's market snapshots report for shorts (USDC, as the simulator's). */
export const BETA_SHORT_CUSTODY = 'G18jKKXQwBbrHeiK3C9MRXhkHsLHf7XgCSisykV46EZa';

/**
 * beta `positionSide` in events. UNCONFIRMED for the event field (accounts.md §7): assumed to
 * follow the `Side` enum of the Position account, 1 long and 2 short. Any other value
 * quarantines the fill.
 */
export const BETA_SIDE = { long: 1, short: 2 } as const;

/**
 * beta events' `positionSizeUsd`. UNCONFIRMED (accounts.md §7 gives the field, not whether it is
 * the size before or after the event): taken as the size AFTER an increase or decrease, and as
 * the size closed in LiquidateFullPositionEvent (which has no size delta). The indexer checks it
 * against the position's previous fill where it knows one and quarantines a fill that disagrees.
 */
export const BETA_SIZE_IS_AFTER_EVENT = true;

/*
 * Two more beta readings that no design document settles (decode-beta.ts applies them), named
 * here so they are found with the rest:
 * - the collateral after an increase event = the previous fill's + `collateralUsdDelta` (the
 *   increase events carry no collateral after; whether the open fee also comes out of it is not
 *   documented);
 * - the trading fee = `positionFeeUsd + priceImpactFeeUsd`; `feeUsd`, whose composition is not
 *   documented, is not used.
 */
