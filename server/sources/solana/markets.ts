/**
 * alpha's markets by market token, read from the program's Market accounts (one
 * getProgramAccounts filtered on the Market discriminator). A TradeEvent of a market not seen
 * yet triggers a reload (at most one a minute), so a market listed after start is picked up.
 */
import { getBase58Decoder } from '@solana/codecs';
import { log } from '../../log.ts';
import { base58ToBytes } from './base58.ts';
import { decodeMarketAccount, parseMarketName, type AlphaMarket } from './decode-alpha.ts';
import { ALPHA_MARKET_DISC, ALPHA_PROGRAM } from './layout.ts';
import type { SolanaRpc } from './rpc.ts';

const RELOAD_EVERY_MS = 60_000;

export class AlphaMarkets {
  private readonly byToken = new Map<string, AlphaMarket>();
  /** every Market account read, for the fallback search of `get` */
  private accounts: { name: string; data: Uint8Array }[] = [];
  private loadedAt = -Infinity;

  constructor(private readonly rpc: SolanaRpc) {}

  /**
   * The market of a market token. The token's offset in the Market account (88) is inferred:
   * should it be wrong, the one Market account whose data holds the token's 32 bytes anywhere
   * is used instead (and remembered), so a layout slip costs a search, not the index.
   */
  get(marketToken: string): AlphaMarket | undefined {
    const known = this.byToken.get(marketToken);
    if (known) return known;
    const needle = Buffer.from(base58ToBytes(marketToken));
    const holders = this.accounts.filter((a) => Buffer.from(a.data.buffer, a.data.byteOffset, a.data.length).includes(needle));
    if (holders.length !== 1) return undefined;
    const market = parseMarketName(holders[0]!.name, marketToken);
    if (market) this.byToken.set(marketToken, market);
    return market ?? undefined;
  }

  get size(): number {
    return this.byToken.size;
  }

  /** Loads every Market account (again). */
  async load(): Promise<void> {
    const disc = getBase58Decoder().decode(Uint8Array.from(Buffer.from(ALPHA_MARKET_DISC, 'hex')));
    const accounts = await this.rpc.getProgramAccounts(ALPHA_PROGRAM, disc);
    this.accounts = [];
    for (const a of accounts) {
      const m = decodeMarketAccount(a.data);
      if (!m) continue;
      this.accounts.push({ name: m.name, data: a.data });
      const market = parseMarketName(m.name, m.marketToken);
      if (market) this.byToken.set(m.marketToken, market);
      else log.warn(`solana: alpha market ${a.pubkey} has an unexpected name "${m.name}"; its fills are not indexed`);
    }
    this.loadedAt = Date.now();
    log.debug(`solana: ${this.byToken.size} alpha markets`);
  }

  /** Makes sure every token is known, reloading once if one is missing (rate-limited). */
  async ensure(tokens: readonly string[]): Promise<void> {
    if (tokens.every((t) => this.get(t) !== undefined)) return;
    if (Date.now() - this.loadedAt < RELOAD_EVERY_MS) return;
    await this.load();
  }
}
