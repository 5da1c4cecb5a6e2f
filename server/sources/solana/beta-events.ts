/**
 * beta (Jupiter Perpetuals) fill events, read field by field in the order of the program's
 * published IDL (shared/design/solana/accounts.md §7), Options included, into one shape. Both IDL
 * versions are read: they differ only in InstantDecreasePositionEvent, to which the newer one
 * appends `positionRequest: Option<Pubkey>`. USD amounts and prices are u64 at 6 decimals.
 */
import { BETA_EVENTS } from './layout.ts';
import { ByteReader } from './reader.ts';

export type BetaEventName = keyof typeof BETA_EVENTS;
export type BetaDirection = 'increase' | 'decrease' | 'liquidate';

export interface BetaEvent {
  name: BetaEventName;
  direction: BetaDirection;
  /** which IDL's layout the bytes matched: J1 (2025), J2 (2026; appends to InstantDecrease), or both */
  idl: 'J1' | 'J2' | 'J1=J2';
  positionKey: string;
  positionSide: number;
  custody: string;
  collateralCustody: string;
  owner: string;
  positionSizeUsd: bigint;
  /** the size this event adds or removes; LiquidateFullPositionEvent: its positionSizeUsd */
  sizeUsdDelta: bigint;
  price: bigint;
  feeUsd: bigint;
  positionFeeUsd: bigint;
  /** the borrow fee settled (beta has no funding; the IDL calls it funding) */
  fundingFeeUsd: bigint;
  priceImpactFeeUsd: bigint;
  /** increases: collateral added (USD) */
  collateralUsdDelta?: bigint;
  /** decreases and liquidations: the position's collateral before and after */
  originalPositionCollateralUsd?: bigint;
  positionCollateralUsd?: bigint;
  positionPrice?: bigint;
  hasProfit?: boolean;
  pnlDelta?: bigint;
  liquidationFeeUsd?: bigint;
}

/** The fields every event opens with: positionKey, positionSide, positionCustody, positionCollateralCustody. */
function head(r: ByteReader) {
  return {
    positionKey: r.pubkey('positionKey'),
    positionSide: r.u8('positionSide'),
    custody: r.pubkey('positionCustody'),
    collateralCustody: r.pubkey('positionCollateralCustody'),
  };
}

function increasePosition(r: ByteReader): BetaEvent {
  const h = head(r);
  const positionSizeUsd = r.u64('positionSizeUsd');
  r.skip(32 * 3, 'positionMint / positionRequestKey / positionRequestMint');
  r.skip(2, 'positionRequestChange / positionRequestType');
  r.u64('positionRequestCollateralDelta');
  const owner = r.pubkey('owner');
  r.pubkey('pool');
  const sizeUsdDelta = r.u64('sizeUsdDelta');
  const collateralUsdDelta = r.u64('collateralUsdDelta');
  r.u64('collateralTokenDelta');
  const price = r.u64('price');
  r.option('priceSlippage', (f) => r.u64(f));
  r.u64('feeToken');
  const feeUsd = r.u64('feeUsd');
  r.i64('openTime');
  r.option('referral', (f) => r.pubkey(f));
  const fees = { positionFeeUsd: r.u64('positionFeeUsd'), fundingFeeUsd: r.u64('fundingFeeUsd'), priceImpactFeeUsd: r.u64('priceImpactFeeUsd') };
  r.end();
  return { name: 'IncreasePositionEvent', direction: 'increase', idl: 'J1=J2', ...h, owner, positionSizeUsd, sizeUsdDelta, collateralUsdDelta, price, feeUsd, ...fees };
}

function decreasePosition(r: ByteReader): BetaEvent {
  const h = head(r);
  const positionSizeUsd = r.u64('positionSizeUsd');
  r.skip(32 * 3, 'positionMint / positionRequestKey / positionRequestMint');
  r.skip(2, 'positionRequestChange / positionRequestType');
  const hasProfit = r.bool('hasProfit');
  const pnlDelta = r.u64('pnlDelta');
  const owner = r.pubkey('owner');
  r.pubkey('pool');
  const sizeUsdDelta = r.u64('sizeUsdDelta');
  r.u64('transferAmountUsd');
  r.option('transferToken', (f) => r.u64(f));
  const price = r.u64('price');
  r.option('priceSlippage', (f) => r.u64(f));
  const feeUsd = r.u64('feeUsd');
  r.i64('openTime');
  r.option('referral', (f) => r.pubkey(f));
  const fees = { positionFeeUsd: r.u64('positionFeeUsd'), fundingFeeUsd: r.u64('fundingFeeUsd'), priceImpactFeeUsd: r.u64('priceImpactFeeUsd') };
  const originalPositionCollateralUsd = r.u64('originalPositionCollateralUsd');
  const positionCollateralUsd = r.u64('positionCollateralUsd');
  r.i64('positionOpenTime');
  const positionPrice = r.u64('positionPrice');
  r.end();
  return {
    name: 'DecreasePositionEvent',
    direction: 'decrease',
    idl: 'J1=J2',
    ...h,
    owner,
    positionSizeUsd,
    sizeUsdDelta,
    price,
    feeUsd,
    ...fees,
    originalPositionCollateralUsd,
    positionCollateralUsd,
    positionPrice,
    hasProfit,
    pnlDelta,
  };
}

function instantIncreasePosition(r: ByteReader): BetaEvent {
  const h = head(r);
  const positionSizeUsd = r.u64('positionSizeUsd');
  r.pubkey('positionMint');
  const owner = r.pubkey('owner');
  r.pubkey('pool');
  const sizeUsdDelta = r.u64('sizeUsdDelta');
  const collateralUsdDelta = r.u64('collateralUsdDelta');
  r.u64('collateralTokenDelta');
  const price = r.u64('price');
  r.u64('priceSlippage');
  r.u64('feeToken');
  const feeUsd = r.u64('feeUsd');
  r.i64('openTime');
  r.option('referral', (f) => r.pubkey(f));
  const fees = { positionFeeUsd: r.u64('positionFeeUsd'), fundingFeeUsd: r.u64('fundingFeeUsd'), priceImpactFeeUsd: r.u64('priceImpactFeeUsd') };
  r.end();
  return { name: 'InstantIncreasePositionEvent', direction: 'increase', idl: 'J1=J2', ...h, owner, positionSizeUsd, sizeUsdDelta, collateralUsdDelta, price, feeUsd, ...fees };
}

function instantDecreasePosition(r: ByteReader): BetaEvent {
  const h = head(r);
  const positionSizeUsd = r.u64('positionSizeUsd');
  r.pubkey('positionMint');
  r.pubkey('desiredMint');
  const hasProfit = r.bool('hasProfit');
  const pnlDelta = r.u64('pnlDelta');
  const owner = r.pubkey('owner');
  r.pubkey('pool');
  const sizeUsdDelta = r.u64('sizeUsdDelta');
  r.u64('transferAmountUsd');
  r.u64('transferToken');
  const price = r.u64('price');
  r.u64('priceSlippage');
  const feeUsd = r.u64('feeUsd');
  r.i64('openTime');
  r.option('referral', (f) => r.pubkey(f));
  const positionFeeUsd = r.u64('positionFeeUsd');
  const fundingFeeUsd = r.u64('fundingFeeUsd');
  const originalPositionCollateralUsd = r.u64('originalPositionCollateralUsd');
  const positionCollateralUsd = r.u64('positionCollateralUsd');
  const priceImpactFeeUsd = r.u64('priceImpactFeeUsd');
  r.i64('positionOpenTime');
  const positionPrice = r.u64('positionPrice');
  // the 2026 IDL (J2) appends positionRequest: Option<Pubkey>; the 2025 one (J1) ends here
  const idl = r.remaining === 0 ? 'J1' : 'J2';
  if (idl === 'J2') r.option('positionRequest', (f) => r.pubkey(f));
  r.end();
  return {
    name: 'InstantDecreasePositionEvent',
    direction: 'decrease',
    idl,
    ...h,
    owner,
    positionSizeUsd,
    sizeUsdDelta,
    price,
    feeUsd,
    positionFeeUsd,
    fundingFeeUsd,
    priceImpactFeeUsd,
    originalPositionCollateralUsd,
    positionCollateralUsd,
    positionPrice,
    hasProfit,
    pnlDelta,
  };
}

function liquidateFullPosition(r: ByteReader): BetaEvent {
  const h = head(r);
  r.pubkey('positionCollateralMint');
  r.pubkey('positionMint');
  const positionSizeUsd = r.u64('positionSizeUsd');
  const hasProfit = r.bool('hasProfit');
  const pnlDelta = r.u64('pnlDelta');
  const owner = r.pubkey('owner');
  r.pubkey('pool');
  r.u64('transferAmountUsd');
  r.u64('transferToken');
  const price = r.u64('price');
  const feeUsd = r.u64('feeUsd');
  const liquidationFeeUsd = r.u64('liquidationFeeUsd');
  r.i64('openTime');
  const fees = { positionFeeUsd: r.u64('positionFeeUsd'), fundingFeeUsd: r.u64('fundingFeeUsd'), priceImpactFeeUsd: r.u64('priceImpactFeeUsd') };
  const originalPositionCollateralUsd = r.u64('originalPositionCollateralUsd');
  const positionCollateralUsd = r.u64('positionCollateralUsd');
  r.i64('positionOpenTime');
  const positionPrice = r.u64('positionPrice');
  r.end();
  return {
    name: 'LiquidateFullPositionEvent',
    direction: 'liquidate',
    idl: 'J1=J2',
    ...h,
    owner,
    positionSizeUsd,
    sizeUsdDelta: positionSizeUsd,
    price,
    feeUsd,
    ...fees,
    originalPositionCollateralUsd,
    positionCollateralUsd,
    positionPrice,
    hasProfit,
    pnlDelta,
    liquidationFeeUsd,
  };
}

const READERS: Record<BetaEventName, (r: ByteReader) => BetaEvent> = {
  IncreasePositionEvent: increasePosition,
  DecreasePositionEvent: decreasePosition,
  InstantIncreasePositionEvent: instantIncreasePosition,
  InstantDecreasePositionEvent: instantDecreasePosition,
  LiquidateFullPositionEvent: liquidateFullPosition,
};

/** Decodes one beta fill event's body; throws a LayoutError when it is not of a documented length. */
export function decodeBetaEvent(name: BetaEventName, body: Uint8Array): BetaEvent {
  return READERS[name](new ByteReader(body, name));
}
