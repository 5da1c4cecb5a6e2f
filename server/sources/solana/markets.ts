/**
 * alpha's markets by market token, read from the program's Market accounts (one
 * getProgramAccounts filtered on the Market discriminator; the program owns every account it
 * returns). A TradeEvent of a market not seen yet triggers one reload, so a market listed after
 * start is picked up; a market token still unknown after its reload (a closed Market account) is
 * not asked for again, and its fills are quarantined with that reason.
 */
import { getBase58Decoder } from '@solana/codecs';
import { log } from '../../lib/log.ts';
import { decodeMarketAccount, parseMarketName, type AlphaMarket } from './decode-alpha.ts';
import { ALPHA_MARKET, ALPHA_PROGRAM } from './layout.ts';
import type { SolanaRpc } from './rpc.ts';

export class AlphaMarkets {
  private readonly byToken = new Map<string, AlphaMarket>();
  /** market tokens a reload did not find */
  private readonly absent = new Set<string>();

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
    log.debug(`solana: ${this.byToken.size} alpha markets`);
  }

  /** Makes sure every token is known, reloading once for tokens not looked for yet. */
  async ensure(tokens: readonly string[]): Promise<void> {
    const missing = tokens.filter((t) => !this.byToken.has(t) && !this.absent.has(t));
    if (missing.length === 0) return;
    await this.load();
    for (const t of missing) if (!this.byToken.has(t)) this.absent.add(t);
  }
}
