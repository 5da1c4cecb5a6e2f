/**
 * alpha (GMX-Solana) `Store` → `TokenMap`: per token mint, its decimals (also for synthetic index
 * tokens, which have no SPL mint), the oracle provider the program expects and the feed ids.
 * Layout: shared/design/solana/oracle-prices.md §2c (TokenConfig is not in the IDL; its offsets
 * were summed from crates/utils/src/token_config.rs).
 */
import { AccountError, checkAccount, type RawAccount } from './bytes.ts';
import { bytesToHex } from '../units.ts';
import { ALPHA_PROGRAM, ALPHA_STORE_ACCOUNT, ALPHA_TOKEN_MAP } from '../layout.ts';
import { ByteReader } from '../reader.ts';

const STORE_TOKEN_MAP_AT = ALPHA_STORE_ACCOUNT.tokenMap;
const { entries: ENTRIES_AT, entrySize: ENTRY_SIZE, maxEntries: MAX_ENTRIES, count: COUNT_AT, configs: CONFIGS_AT, configSize: CONFIG_SIZE } = ALPHA_TOKEN_MAP;

/** The store's TokenMap account address. */
export function decodeStoreTokenMap(a: RawAccount): string {
  checkAccount(a, 'alpha Store', { owner: ALPHA_PROGRAM, disc: ALPHA_STORE_ACCOUNT.disc, minLength: STORE_TOKEN_MAP_AT + 32 });
  return new ByteReader(a.data, `alpha Store ${a.pubkey}`).at(STORE_TOKEN_MAP_AT).pubkey('token_map');
}

export interface AlphaTokenConfig {
  mint: string;
  name: string;
  /** the decimals of the token's unit prices */
  decimals: number;
  /** PriceProviderKind: 0 Chainlink Data Streams, 1 Pyth, 2 Chainlink (deprecated), 3 Switchboard */
  expectedProvider: number;
  /** feeds[k].feed (hex of 32 bytes) by provider kind; all zero = unset */
  feeds: string[];
  /** max price age in seconds */
  heartbeat: number;
}

/** Every token of a TokenMap, keyed by mint. */
export function decodeTokenMap(a: RawAccount): Map<string, AlphaTokenConfig> {
  checkAccount(a, 'alpha TokenMap', { owner: ALPHA_PROGRAM, disc: ALPHA_TOKEN_MAP.disc, minLength: CONFIGS_AT });
  const r = new ByteReader(a.data, `alpha TokenMap ${a.pubkey}`);
  const count = r.at(COUNT_AT).u32('count');
  if (count > MAX_ENTRIES) throw new AccountError(`alpha TokenMap ${a.pubkey}: ${count} entries`);
  const out = new Map<string, AlphaTokenConfig>();
  for (let i = 0; i < count; i++) {
    const at = ENTRIES_AT + ENTRY_SIZE * i;
    const mint = r.at(at).pubkey('mint');
    const index = r.at(at + 32).u8('index');
    const c = CONFIGS_AT + CONFIG_SIZE * index;
    if (c + CONFIG_SIZE > a.data.length) throw new AccountError(`alpha TokenMap ${a.pubkey}: config ${index} of ${mint} lies past the end`);
    out.set(mint, {
      mint,
      name: r.at(c).fixedString('name', 32),
      decimals: r.at(c + ALPHA_TOKEN_MAP.configDecimals).u8('decimals'),
      expectedProvider: r.at(c + 35).u8('expectedProvider'),
      feeds: [0, 1, 2, 3].map((k) => bytesToHex(a.data.subarray(c + 36 + 64 * k, c + 68 + 64 * k))),
      heartbeat: r.at(c + 292).u32('heartbeat'),
    });
  }
  return out;
}
