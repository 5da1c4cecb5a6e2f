/**
 * Real mainnet bytes (test/fixtures/solana/alpha-gmsol-sdk.json, from the program authors' SDK
 * demo): the TradeEvent decodes to every value the fixture gives, the Market account to its name
 * and mints, and the event becomes the fill the fixture describes, its token decimals read from
 * (mock) mint accounts the way the indexer reads them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeTradeEvent } from '../../../server/sources/solana/alpha-events.ts';
import { decodeMarketAccount, parseMarketName } from '../../../server/sources/solana/decode-alpha.ts';
import { SolanaRpc } from '../../../server/sources/solana/rpc.ts';
import { TokenDecimals } from '../../../server/sources/solana/tokens.ts';
import { concat, u64, u8, zeros } from '../../helpers/solana-bytes.ts';
import { ALPHA, decode, txOf } from '../../helpers/solana-golden.ts';
import { MockChain, startMockRpc } from '../../helpers/solana-mock-rpc.ts';

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/solana/alpha-gmsol-sdk.json', import.meta.url), 'utf8')) as {
  market_account: { base64: string; decoded: Record<string, unknown> };
  trade_event: { base64: string; decoded: Record<string, any>; expected_fill: Record<string, any> };
};
const tradeBytes = Buffer.from(fixture.trade_event.base64, 'base64');
const marketBytes = Buffer.from(fixture.market_account.base64, 'base64');
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

/** An SPL mint account (82 bytes): mint authority COption, supply, decimals @44, initialized @45, freeze authority. */
const mintAccount = (decimals: number) => concat(zeros(4), zeros(32), u64(0), u8(decimals), u8(1), zeros(4), zeros(32));

describe('the real TradeEvent and Market account', () => {
  it("the TradeEvent decodes to the fixture's values", () => {
    expect(tradeBytes.subarray(0, 8).toString('hex')).toBe('bddb7fd34ee661ee');
    const ev = decodeTradeEvent(tradeBytes.subarray(8));
    const d = fixture.trade_event.decoded;
    const state = (s: Record<string, string | number>) => ({
      tradeId: BigInt(s.trade_id!),
      increasedAt: BigInt(s.increased_at!),
      updatedAtSlot: BigInt(s.updated_at_slot!),
      decreasedAt: BigInt(s.decreased_at!),
      sizeInTokens: BigInt(s.size_in_tokens!),
      collateralAmount: BigInt(s.collateral_amount!),
      sizeInUsd: BigInt(s.size_in_usd!),
      borrowingFactor: BigInt(s.borrowing_factor!),
      fundingFeeAmountPerSize: BigInt(s.funding_fee_amount_per_size!),
      longTokenClaimableFundingAmountPerSize: BigInt(s.long_token_claimable_funding_amount_per_size!),
      shortTokenClaimableFundingAmountPerSize: BigInt(s.short_token_claimable_funding_amount_per_size!),
    });
    const mm = (p: { min: string; max: string }) => ({ min: BigInt(p.min), max: BigInt(p.max) });
    expect(ev).toEqual({
      flags: d.flags,
      tradeId: BigInt(d.trade_id),
      authority: d.authority,
      store: d.store,
      marketToken: d.market_token,
      user: d.user,
      position: d.position,
      order: d.order,
      finalOutputToken: d.final_output_token,
      ts: BigInt(d.ts),
      slot: BigInt(d.slot),
      before: state(d.before),
      after: state(d.after),
      transferOutExecuted: d.transfer_out_executed,
      prices: { index: mm(d.prices.index), long: mm(d.prices.long), short: mm(d.prices.short) },
      executionPrice: BigInt(d.execution_price),
      priceImpactValue: BigInt(d.price_impact_value),
      priceImpactDiff: BigInt(d.price_impact_diff),
      pnl: BigInt(d.pnl),
      uncappedPnl: BigInt(d.uncapped_pnl),
      fees: {
        orderFeeForReceiver: BigInt(d.fees.order_fee_for_receiver),
        orderFeeForPool: BigInt(d.fees.order_fee_for_pool),
        liquidationFee: BigInt(d.fees.liquidation_fee),
        liquidationFeeForReceiver: BigInt(d.fees.liquidation_fee_for_receiver),
        totalBorrowingFee: BigInt(d.fees.total_borrowing_fee),
        borrowingFeeForReceiver: BigInt(d.fees.borrowing_fee_for_receiver),
        fundingFee: BigInt(d.fees.funding_fee),
        claimableFundingLong: BigInt(d.fees.claimable_funding_long_token),
        claimableFundingShort: BigInt(d.fees.claimable_funding_short_token),
      },
      outputAmounts: d.output_amounts.map(BigInt),
    });
  });

  it('the Market account decodes to its name, market token and mints', () => {
    const d = fixture.market_account.decoded;
    expect(decodeMarketAccount(marketBytes)).toEqual({
      name: d.name,
      marketToken: d.market_token_mint,
      indexMint: d.index_token_mint,
      longMint: d.long_token_mint,
      shortMint: d.short_token_mint,
    });
  });

  it('becomes the fill the fixture describes, decimals read from the mints', async () => {
    const m = decodeMarketAccount(marketBytes)!;
    const market = { ...m, ...parseMarketName(m.name)! };
    const chain = new MockChain();
    chain.accounts.set(TOKEN_PROGRAM, [
      { pubkey: m.indexMint, data: mintAccount(9) }, // GMX
      { pubkey: m.longMint, data: mintAccount(9) }, // WSOL
      { pubkey: m.shortMint, data: mintAccount(6) }, // USDC
    ]);
    const rpc = await startMockRpc(chain);
    try {
      const tokens = new TokenDecimals(new SolanaRpc({ url: rpc.url }));
      await tokens.ensure([m.indexMint, m.longMint, m.shortMint]);
      expect([tokens.get(m.indexMint), tokens.get(m.longMint), tokens.get(m.shortMint)]).toEqual([9, 9, 6]);
      const e = fixture.trade_event.expected_fill;
      const { fills, rejected } = decode(txOf(ALPHA, [tradeBytes], { slot: e.slot }), { markets: [market], decimals: { [m.indexMint]: 9, [m.longMint]: 9, [m.shortMint]: 6 } });
      expect(rejected).toEqual([]);
      const f = fills[0]!;
      expect(f).toMatchObject({
        protocol: e.protocol,
        type: e.type,
        side: e.side,
        market: e.market,
        market_variant: e.market_variant,
        address: e.address,
        position_key: e.position_key,
        slot: e.slot,
        collateral_token: 'USDC',
      });
      expect(new Date(f.time).toISOString()).toBe(e.time);
      expect(f.size_delta_usd).toBeCloseTo(e.size_delta_usd, 5);
      expect(f.position_size_usd).toBeCloseTo(e.position_size_usd, 5);
      expect(f.price).toBe(e.price); // 1482239461510 × 1e9 / 1e20, exactly
      expect(f.entry_price).toBe(e.price);
      // the program's own entry: size_in_usd / size_in_tokens of the state after the open
      // (29671432173268000000000 / 1e20 USD / (20017974790 / 1e9) GMX = 14.8223946151088144…)
      expect(f.position_entry_price).toBe(14.822394615108815);
      expect(Math.abs(f.fee_usd - 0.115125)).toBeLessThan(0.01);
      expect(f.fee_usd).toBe(0.115125);
      expect(f.position_collateral_usd).toBe(93.429622); // 93.452237 USDC at the short token's min price 0.999758
    } finally {
      await rpc.close();
    }
  });
});
