/**
 * Token decimals from the chain, cached: alpha's token map first (the store's TokenConfig
 * `token_decimals`, the decimals the program's unit prices use, and the only source for
 * synthetic index tokens, which have no mint), then the SPL mint account of any token the map
 * does not hold. No table of ours decides whether a market is indexed: a token whose decimals
 * cannot be read quarantines its fills with that reason.
 */
import { log } from '../../lib/log.ts';
import { decodeStoreTokenMap, decodeTokenMap, type AlphaTokenConfig } from './accounts/alpha-token-map.ts';
import { tryDecode } from './accounts/bytes.ts';
import { ALPHA_PROGRAM, ALPHA_STORE, SPL_MINT, TOKEN_PROGRAMS } from './layout.ts';
import type { OwnedAccount, SolanaRpc } from './rpc.ts';

/** The token map reload happens at most this often (a token listed later is picked up). */
const RELOAD_EVERY_MS = 3_600_000;

/** Decimals of an SPL (or Token-2022) mint account; undefined if the account is not an initialized mint. */
export function mintDecimals(account: Pick<OwnedAccount, 'owner' | 'data'>): number | undefined {
  const d = account.data;
  if (!TOKEN_PROGRAMS.has(account.owner) || d.length < SPL_MINT.length || d[SPL_MINT.initialized] !== 1) return undefined;
  return d[SPL_MINT.decimals];
}

export class TokenDecimals {
  private readonly known = new Map<string, number>();
  /** mints read and found not to be mints (not asked again until the map reloads) */
  private readonly missing = new Set<string>();
  private mapLoadedAt = -Infinity;

  constructor(private readonly rpc: SolanaRpc) {}

  get(mint: string): number | undefined {
    return this.known.get(mint);
  }

  /** Sets decimals by hand (tests). */
  set(mint: string, decimals: number): void {
    this.known.set(mint, decimals);
  }

  /** Reads the store's token map (Store → token_map → TokenMapHeader), checking owner and discriminators. */
  async loadTokenMap(): Promise<void> {
    this.mapLoadedAt = Date.now();
    this.missing.clear();
    const [store] = await this.rpc.getMultipleAccounts([ALPHA_STORE]);
    const mapKey = tryDecode(decodeStoreTokenMap, store ?? null, 'alpha Store');
    if (!mapKey) {
      log.warn(`solana: alpha store ${ALPHA_STORE} is not a Store account of ${ALPHA_PROGRAM}; token decimals come from mint accounts only`);
      return;
    }
    const [map] = await this.rpc.getMultipleAccounts([mapKey]);
    const tokens = tryDecode(decodeTokenMap, map ?? null, 'alpha TokenMap') ?? new Map<string, AlphaTokenConfig>();
    if (tokens.size === 0) log.warn(`solana: alpha token map ${mapKey} could not be read; token decimals come from mint accounts only`);
    for (const [mint, config] of tokens) this.known.set(mint, config.decimals);
    log.debug(`solana: ${tokens.size} tokens in alpha's token map`);
  }

  /** Makes sure every mint's decimals are known where the chain has them (one request for all). */
  async ensure(mints: readonly string[]): Promise<void> {
    let wanted = [...new Set(mints)].filter((m) => !this.known.has(m));
    if (wanted.length === 0) return;
    if (Date.now() - this.mapLoadedAt >= RELOAD_EVERY_MS) {
      await this.loadTokenMap();
      wanted = wanted.filter((m) => !this.known.has(m));
    }
    wanted = wanted.filter((m) => !this.missing.has(m));
    if (wanted.length === 0) return;
    const accounts = await this.rpc.getMultipleAccounts(wanted);
    wanted.forEach((mint, i) => {
      const a = accounts[i];
      const decimals = a ? mintDecimals(a) : undefined;
      if (decimals === undefined) this.missing.add(mint);
      else this.known.set(mint, decimals);
    });
  }
}
