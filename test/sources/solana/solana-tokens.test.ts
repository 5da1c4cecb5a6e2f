/**
 * Token decimals from the chain: the store's token map (Store → token_map → TokenMapHeader →
 * TokenConfig.token_decimals, laid out by hand from oracle-prices.md §2c) first, SPL mint
 * accounts (decimals at 44) for the rest; accounts of the wrong owner or discriminator are not
 * read. And the quarantine file: entries on disk, counted, not written twice, counted again after
 * a restart.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Quarantine } from '../../../server/sources/quarantine.ts';
import { SourceStatus } from '../../../server/sources/source-status.ts';
import { SolanaRpc } from '../../../server/sources/solana/rpc.ts';
import { decodeStoreTokenMap, decodeTokenMap } from '../../../server/sources/solana/accounts/alpha-token-map.ts';
import { AccountError } from '../../../server/sources/solana/accounts/bytes.ts';
import { mintDecimals, TokenDecimals } from '../../../server/sources/solana/tokens.ts';
import { tempDataDir } from '../../helpers/fixtures.ts';
import { concat, fromHex, key, u64, u8, zeros } from '../../helpers/solana-bytes.ts';
import { MockChain, startMockRpc } from '../../helpers/solana-mock-rpc.ts';

const ALPHA = 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo';
const STORE = 'CTDLvGGXnoxvqLyTpGzdGLg9pD6JexKxKXSV8tqqo8bN';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const gmx = key(0x31);
const xau = key(0x32); // a synthetic index token: no mint account
const usdc = key(0x33);
const mapKey = key(0x34);

/** A Store account: discriminator, then `token_map` at 4568. */
const storeAccount = () => concat(fromHex('8230f7f4b6bf1e1a'), zeros(4568 - 8), mapKey.bytes, zeros(64));

/** A TokenMapHeader with `entries` [mint, config index], and configs whose token_decimals @+33 are given. */
function tokenMap(entries: [Uint8Array, number][], decimals: number[]): Uint8Array {
  const data = new Uint8Array(8564 + 328 * decimals.length);
  data.set(fromHex('6b2b1b18f53e917e'), 0); // discriminator
  entries.forEach(([mint, index], i) => {
    data.set(mint, 48 + 33 * i); // key @48 + 33i
    data[48 + 33 * i + 32] = index; // value
  });
  new DataView(data.buffer).setUint32(8496, entries.length, true); // count @8496
  decimals.forEach((d, i) => (data[8564 + 328 * i + 33] = d)); // TokenConfig i @8564 + 328i, token_decimals @+33
  return data;
}
/** An SPL mint: COption authority (36), supply @36, decimals @44, is_initialized @45, freeze authority (36). */
const mint = (decimals: number, initialized = 1) => concat(zeros(36), u64(1), u8(decimals), u8(initialized), zeros(36));

describe('token decimals', () => {
  it('decodes a token map and a store', () => {
    const decimals = decodeTokenMap({
      pubkey: mapKey.b58,
      owner: ALPHA,
      data: tokenMap(
        [
          [gmx.bytes, 1],
          [xau.bytes, 0],
        ],
        [8, 9],
      ),
    });
    expect(new Map([...decimals].map(([m, c]) => [m, c.decimals]))).toEqual(
      new Map([
        [gmx.b58, 9],
        [xau.b58, 8],
      ]),
    );
    // another discriminator, another owner
    expect(() => decodeTokenMap({ pubkey: mapKey.b58, owner: ALPHA, data: concat(fromHex('0000000000000000'), zeros(9000)) })).toThrow(AccountError);
    expect(() => decodeTokenMap({ pubkey: mapKey.b58, owner: TOKEN_PROGRAM, data: tokenMap([[gmx.bytes, 0]], [8]) })).toThrow(AccountError);
    expect(decodeStoreTokenMap({ pubkey: STORE, owner: ALPHA, data: storeAccount() })).toBe(mapKey.b58);
    expect(() => decodeStoreTokenMap({ pubkey: STORE, owner: ALPHA, data: zeros(5000) })).toThrow(AccountError);
  });

  it("reads an SPL mint's decimals only from an initialized account of a token program", () => {
    expect(mintDecimals({ owner: TOKEN_PROGRAM, data: mint(6) })).toBe(6);
    expect(mintDecimals({ owner: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb', data: concat(mint(9), zeros(100)) })).toBe(9);
    expect(mintDecimals({ owner: ALPHA, data: mint(6) })).toBeUndefined();
    expect(mintDecimals({ owner: TOKEN_PROGRAM, data: mint(6, 0) })).toBeUndefined();
  });

  it('takes the token map first, mint accounts for the rest, and nothing from a wrong owner', async () => {
    const chain = new MockChain();
    chain.accounts.set(ALPHA, [
      { pubkey: STORE, data: storeAccount() },
      {
        pubkey: mapKey.b58,
        data: tokenMap(
          [
            [gmx.bytes, 0],
            [xau.bytes, 1],
          ],
          [9, 8],
        ),
      },
    ]);
    chain.accounts.set(TOKEN_PROGRAM, [
      { pubkey: usdc.b58, data: mint(6) },
      { pubkey: gmx.b58, data: mint(5) },
    ]);
    chain.accounts.set('SomeOtherProgram1111111111111111111111111111', [{ pubkey: key(0x35).b58, data: mint(4) }]);
    const rpc = await startMockRpc(chain);
    try {
      const tokens = new TokenDecimals(new SolanaRpc({ url: rpc.url }));
      await tokens.ensure([gmx.b58, xau.b58, usdc.b58, key(0x35).b58]);
      expect(tokens.get(gmx.b58)).toBe(9); // the map's decimals win over the mint's
      expect(tokens.get(xau.b58)).toBe(8); // a synthetic token: from the map only
      expect(tokens.get(usdc.b58)).toBe(6);
      expect(tokens.get(key(0x35).b58)).toBeUndefined();
      const calls = rpc.calls.getMultipleAccounts!;
      await tokens.ensure([gmx.b58, key(0x35).b58]); // cached, and a non-mint is not asked for again
      expect(rpc.calls.getMultipleAccounts).toBe(calls);
    } finally {
      await rpc.close();
    }
  });
});

describe('quarantine', () => {
  it('writes each entry once, counts it in the source status, and counts the file again after a restart', () => {
    const data = tempDataDir();
    try {
      const status = new SourceStatus('solana');
      const q = new Quarantine(data.dir, 'solana', status);
      const entry = { tx: 'Tx1', slot: 5, event: 'TradeEvent', eventIndex: 0, reason: 'alpha open: price 0 is not a positive price', fill: { size: 10n } };
      q.add(entry);
      q.add(entry);
      q.add({ ...entry, tx: 'Tx2' });
      expect(q.count).toBe(2);
      expect(status.get().quarantined).toBe(2);
      const lines = readFileSync(q.file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({ tx: 'Tx1', slot: 5, event: 'TradeEvent', reason: entry.reason, fill: { size: '10' } });
      const again = new Quarantine(data.dir, 'solana', new SourceStatus('solana'));
      expect(again.count).toBe(2);
      again.add(entry);
      expect(readFileSync(q.file, 'utf8').trim().split('\n')).toHaveLength(2);
    } finally {
      data.cleanup();
    }
  });
});
