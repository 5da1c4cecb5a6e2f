/**
 * alpha's markets by market token, read from the program's Market accounts (one
 * getProgramAccounts filtered on the Market discriminator; the program owns every account it
 * returns). A TradeEvent of a market not seen yet triggers a reload (at most one a minute), so a
 * market listed after start is picked up.
 */
import { getBase58Decoder } from '@solana/codecs';
import { log } from '../../log.ts';
import { decodeMarketAccount, parseMarketName, type AlphaMarket } from './decode-alpha.ts';
import { ALPHA_MARKET, ALPHA_PROGRAM } from './layout.ts';
import type { SolanaRpc } from './rpc.ts';

const RELOAD_EVERY_MS = 60_000;

export class AlphaMarkets {
  private readonly byToken = new Map<string, AlphaMarket>();
  private loadedAt = -Infinity;

  constructor(private readonly rpc: SolanaRpc) {}

  get(marketToken: string): AlphaMarket | undefined {
    return this.byToken.get(marketToken);
  }

  get size(): number {
    return this.byToken.size;
  }

  /** Every market's mints (for the token decimals to read). */
  mints(): string[] {
    return [...this.byToken.values()].flatMap((m) => [m.indexMint, m.longMint, m.shortMint]);
  }

  /** Loads every Market account (again). */
  async load(): Promise<void> {
    const disc = getBase58Decoder().decode(Uint8Array.from(Buffer.from(ALPHA_MARKET.disc, 'hex')));
    const accounts = await this.rpc.getProgramAccounts(ALPHA_PROGRAM, disc);
    for (const a of accounts) {
      const m = decodeMarketAccount(a.data);
      if (!m) continue;
      const symbols = parseMarketName(m.name);
      if (symbols) this.byToken.set(m.marketToken, { ...m, ...symbols });
      else log.warn(`solana: alpha market ${a.pubkey} has an unexpected name "${m.name}"; its fills are quarantined`);
    }
    this.loadedAt = Date.now();
    log.debug(`solana: ${this.byToken.size} alpha markets`);
  }

  /** Makes sure every token is known, reloading once if one is missing (rate-limited). */
  async ensure(tokens: readonly string[]): Promise<void> {
    if (tokens.every((t) => this.byToken.has(t))) return;
    if (Date.now() - this.loadedAt < RELOAD_EVERY_MS) return;
    await this.load();
  }
}
