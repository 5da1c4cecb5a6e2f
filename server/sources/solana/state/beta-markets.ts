/**
 * beta's markets: Jupiter's JLP custodies by address (shared/design/solana/accounts.md §6, from
 * Jupiter's published constants). A non-stable custody is a market (`{SYMBOL}-PERP`); shorts post
 * a stable custody. The snapshot's short side reports the USDC custody (the simulator's too).
 */
export const BETA_CUSTODY_SYMBOLS: Readonly<Record<string, string>> = {
  '7xS2gz2bTp3fwCC7knJvUWTEU9Tycczu6VhJYKgi1wdz': 'SOL',
  AQCGyheWPLeo6Qp9WpYS9m3Qj479t7R636N9ey1rEjEn: 'ETH',
  '5Pv3gM9JrFFH883SWAhvJC9RPYmo8UNxuFtv5bMMALkm': 'BTC',
  G18jKKXQwBbrHeiK3C9MRXhkHsLHf7XgCSisykV46EZa: 'USDC',
  '4vkNeXiYEUizLdrpdPS1eC2mccyM4NUPRtERrk6ZETkk': 'USDT',
};

/** The custody whose borrow rate the snapshot reports for shorts. */
export const BETA_SHORT_CUSTODY = 'G18jKKXQwBbrHeiK3C9MRXhkHsLHf7XgCSisykV46EZa';

/** `{INDEX}-PERP` of an alpha market name `{INDEX}/USD[{LONG}-{SHORT}]`, or null for another shape. */
export function alphaMarketSymbol(name: string): string | null {
  const m = /^([A-Za-z0-9.]+)\/USD\[[A-Za-z0-9.]+-[A-Za-z0-9.]+\]$/.exec(name);
  return m ? `${m[1]}-PERP` : null;
}
