/**
 * alpha (GMX-Solana store program) event bodies, read field by field in the order of
 * shared/design/solana/alpha-events.md §1-§4. TradeEvent is fixed (1232 bytes);
 * PositionIncreased / PositionDecreased / OrderRemoved have Options or a String and are read
 * sequentially. Every reader consumes the whole body or throws a LayoutError.
 */
import { ALPHA_ORDER_KINDS, type AlphaOrderKind } from './layout.ts';
import { ByteReader, LayoutError } from './reader.ts';

export interface PositionState {
  tradeId: bigint;
  increasedAt: bigint;
  updatedAtSlot: bigint;
  decreasedAt: bigint;
  sizeInTokens: bigint;
  collateralAmount: bigint;
  sizeInUsd: bigint;
  borrowingFactor: bigint;
  fundingFeeAmountPerSize: bigint;
  longTokenClaimableFundingAmountPerSize: bigint;
  shortTokenClaimableFundingAmountPerSize: bigint;
}

/** A min / max oracle price pair: a unit price, USD per smallest token unit × 1e20. */
export interface MinMax {
  min: bigint;
  max: bigint;
}

/** The oracle prices a TradeEvent carries, and the ones the market model takes. */
export interface AlphaPrices {
  index: MinMax;
  long: MinMax;
  short: MinMax;
}

export interface TradeEvent {
  flags: number;
  tradeId: bigint;
  authority: string;
  store: string;
  marketToken: string;
  user: string;
  position: string;
  order: string;
  finalOutputToken: string;
  ts: bigint;
  slot: bigint;
  before: PositionState;
  after: PositionState;
  transferOutExecuted: number;
  prices: AlphaPrices;
  executionPrice: bigint;
  priceImpactValue: bigint;
  priceImpactDiff: bigint;
  pnl: bigint;
  uncappedPnl: bigint;
  /** collateral-token units, except the two claimable amounts (long / short token units) */
  fees: {
    orderFeeForReceiver: bigint;
    orderFeeForPool: bigint;
    liquidationFee: bigint;
    liquidationFeeForReceiver: bigint;
    totalBorrowingFee: bigint;
    borrowingFeeForReceiver: bigint;
    fundingFee: bigint;
    claimableFundingLong: bigint;
    claimableFundingShort: bigint;
  };
  outputAmounts: [bigint, bigint];
}

export const TRADE_EVENT_SIZE = 1232;

/** PositionState (272 bytes): alpha-events.md §1a. */
export function readPositionState(r: ByteReader, field: string): PositionState {
  const s: PositionState = {
    tradeId: r.u64(`${field}.trade_id`),
    increasedAt: r.i64(`${field}.increased_at`),
    updatedAtSlot: r.u64(`${field}.updated_at_slot`),
    decreasedAt: r.i64(`${field}.decreased_at`),
    sizeInTokens: r.u128(`${field}.size_in_tokens`),
    collateralAmount: r.u128(`${field}.collateral_amount`),
    sizeInUsd: r.u128(`${field}.size_in_usd`),
    borrowingFactor: r.u128(`${field}.borrowing_factor`),
    fundingFeeAmountPerSize: r.u128(`${field}.funding_fee_amount_per_size`),
    longTokenClaimableFundingAmountPerSize: r.u128(`${field}.long_token_claimable_funding_amount_per_size`),
    shortTokenClaimableFundingAmountPerSize: r.u128(`${field}.short_token_claimable_funding_amount_per_size`),
  };
  r.skip(128, `${field}.reserved`);
  return s;
}

const minMax = (r: ByteReader, f: string): MinMax => ({ min: r.u128(`${f}.min`), max: r.u128(`${f}.max`) });

/** TradeEvent body: alpha-events.md §1 (fixed 1232 bytes). */
export function decodeTradeEvent(body: Uint8Array): TradeEvent {
  if (body.length !== TRADE_EVENT_SIZE) throw new LayoutError(`TradeEvent: ${body.length} bytes, documented ${TRADE_EVENT_SIZE}`);
  const r = new ByteReader(body, 'TradeEvent');
  const flags = r.u8('flags');
  r.skip(7, 'padding_0');
  const head = {
    flags,
    tradeId: r.u64('trade_id'),
    authority: r.pubkey('authority'),
    store: r.pubkey('store'),
    marketToken: r.pubkey('market_token'),
    user: r.pubkey('user'),
    position: r.pubkey('position'),
    order: r.pubkey('order'),
    finalOutputToken: r.pubkey('final_output_token'),
    ts: r.i64('ts'),
    slot: r.u64('slot'),
    before: readPositionState(r, 'before'),
    after: readPositionState(r, 'after'),
  };
  const transferOutExecuted = r.u8('transfer_out.executed');
  r.skip(7 + 8 * 8, 'transfer_out (padding and amounts)');
  r.skip(8, 'padding_1');
  const ev: TradeEvent = {
    ...head,
    transferOutExecuted,
    prices: { index: minMax(r, 'prices.index'), long: minMax(r, 'prices.long'), short: minMax(r, 'prices.short') },
    executionPrice: r.u128('execution_price'),
    priceImpactValue: r.i128('price_impact_value'),
    priceImpactDiff: r.u128('price_impact_diff'),
    pnl: r.i128('pnl.pnl'),
    uncappedPnl: r.i128('pnl.uncapped_pnl'),
    fees: {
      orderFeeForReceiver: r.u128('fees.order_fee_for_receiver_amount'),
      orderFeeForPool: r.u128('fees.order_fee_for_pool_amount'),
      liquidationFee: r.u128('fees.liquidation_fee_amount'),
      liquidationFeeForReceiver: r.u128('fees.liquidation_fee_for_receiver_amount'),
      totalBorrowingFee: r.u128('fees.total_borrowing_fee_amount'),
      borrowingFeeForReceiver: r.u128('fees.borrowing_fee_for_receiver_amount'),
      fundingFee: r.u128('fees.funding_fee_amount'),
      claimableFundingLong: r.u128('fees.claimable_funding_fee_long_token_amount'),
      claimableFundingShort: r.u128('fees.claimable_funding_fee_short_token_amount'),
    },
    outputAmounts: [r.u128('output_amounts.output_amount'), r.u128('output_amounts.secondary_output_amount')],
  };
  r.end();
  return ev;
}

/** `fees.liquidation` of a position report: present exactly when the fill is a liquidation. */
export interface LiquidationFees {
  /** USD × 1e20 */
  feeValue: bigint;
  feeAmount: bigint;
  feeAmountForReceiver: bigint;
}

const readLiquidationFees = (r: ByteReader, f: string): LiquidationFees => ({
  feeValue: r.u128(`${f}.fee_value`),
  feeAmount: r.u128(`${f}.fee_amount`),
  feeAmountForReceiver: r.u128(`${f}.fee_amount_for_receiver`),
});

/** What a fill takes from PositionIncreased / PositionDecreased (USD values × 1e20). */
export interface PositionReport {
  kind: 'increased' | 'decreased';
  rev: bigint;
  marketToken: string;
  sizeDeltaUsd: bigint;
  executionPrice: bigint;
  /** order fee value (USD × 1e20) */
  orderFeeValue: bigint;
  /** paid order (and, from program v0.7.0, borrowing) fee value, USD × 1e20 */
  paidFeeValue: bigint;
  borrowingFeeAmount: bigint;
  fundingFeeAmount: bigint;
  liquidation: LiquidationFees | null;
  /** decreases only: realized PnL (USD × 1e20), the insolvent-close step if any */
  pnl?: bigint;
  insolventCloseStep?: number | null;
  shouldRemove?: boolean;
}

/** Order / borrowing / funding / liquidation fee block shared by both reports (alpha-events.md §2, §3). */
function readFees(r: ByteReader) {
  const paidFeeValue = r.u128('report.fees.paid_order_and_borrowing_fee_value');
  r.skip(32, 'report.fees.order.base.fee_amount_for_receiver / _for_pool');
  const orderFeeValue = r.u128('report.fees.order.fee_value');
  const borrowingFeeAmount = r.u128('report.fees.borrowing.fee_amount');
  r.skip(16, 'report.fees.borrowing.fee_amount_for_receiver');
  const fundingFeeAmount = r.u128('report.fees.funding.amount');
  r.skip(32, 'report.fees.funding.claimable_long / _short');
  const liquidation = r.option('report.fees.liquidation', (f) => readLiquidationFees(r, f));
  return { paidFeeValue, orderFeeValue, borrowingFeeAmount, fundingFeeAmount, liquidation };
}

/** PositionIncreased body: alpha-events.md §2 (442 bytes with acceptable_price Some). */
export function decodePositionIncreased(body: Uint8Array): PositionReport {
  const r = new ByteReader(body, 'PositionIncreased');
  const rev = r.u64('rev');
  const marketToken = r.pubkey('market_token');
  r.skip(16, 'report.params.collateral_increment_amount');
  const sizeDeltaUsd = r.u128('report.params.size_delta_usd');
  r.option('report.params.acceptable_price', (f) => r.u128(f));
  r.skip(6 * 16, 'report.params.prices');
  r.skip(16 + 16, 'report.execution.price_impact_value / price_impact_amount');
  r.skip(16, 'report.execution.size_delta_in_tokens');
  const executionPrice = r.u128('report.execution.execution_price');
  r.skip(16, 'report.collateral_delta_amount');
  const fees = readFees(r);
  r.skip(32, 'report.claimable_funding_long / _short_token_amount');
  r.end();
  return { kind: 'increased', rev, marketToken, sizeDeltaUsd, executionPrice, ...fees };
}

/** PositionDecreased body: alpha-events.md §3 (461, +48 with liquidation fees, +1 with an insolvent-close step). */
export function decodePositionDecreased(body: Uint8Array): PositionReport {
  const r = new ByteReader(body, 'PositionDecreased');
  const rev = r.u64('rev');
  const marketToken = r.pubkey('market_token');
  r.skip(32, 'report.price_impact_value / price_impact_diff');
  const executionPrice = r.u128('report.execution_price');
  r.skip(16 + 16 + 16, 'report.size_delta_in_tokens / withdrawable_collateral_amount / initial_size_delta_usd');
  const sizeDeltaUsd = r.u128('report.size_delta_usd');
  const fees = readFees(r);
  const pnl = r.i128('report.pnl.pnl');
  r.skip(16, 'report.pnl.uncapped_pnl');
  const insolventCloseStep = r.option('report.insolvent_close_step', (f) => {
    const step = r.u8(f);
    if (step > 4) throw new LayoutError(`PositionDecreased: insolvent_close_step ${step} (documented 0-4)`);
    return step;
  });
  const shouldRemove = r.bool('report.should_remove');
  r.skip(2, 'report.is_output_token_long / is_secondary_output_token_long');
  r.skip(2 * 16 + 2 * 16 + 2 * 16 + 2 * 16, 'report.output_amounts / claimable_funding / for_holding / for_user');
  r.end();
  return { kind: 'decreased', rev, marketToken, sizeDeltaUsd, executionPrice, ...fees, pnl, insolventCloseStep, shouldRemove };
}

export interface OrderRemoved {
  id: bigint;
  ts: bigint;
  slot: bigint;
  store: string;
  order: string;
  kind: AlphaOrderKind;
  marketToken: string;
  owner: string;
  state: number;
  reason: string;
}

/** OrderRemoved body: alpha-events.md §4 (158 + reason length). */
export function decodeOrderRemoved(body: Uint8Array): OrderRemoved {
  const r = new ByteReader(body, 'OrderRemoved');
  const head = { id: r.u64('id'), ts: r.i64('ts'), slot: r.u64('slot'), store: r.pubkey('store'), order: r.pubkey('order') };
  const kindIndex = r.u8('kind');
  const kind = ALPHA_ORDER_KINDS[kindIndex];
  if (kind === undefined) throw new LayoutError(`OrderRemoved: order kind ${kindIndex} (documented 0-${ALPHA_ORDER_KINDS.length - 1})`);
  const rest = { marketToken: r.pubkey('market_token'), owner: r.pubkey('owner'), state: r.u8('state'), reason: r.string('reason', 32) };
  if (rest.state > 2) throw new LayoutError(`OrderRemoved: action state ${rest.state} (documented 0-2)`);
  r.end();
  return { ...head, kind, ...rest };
}
