/**
 * The check an RPC endpoint must pass before the solana source starts: reachable, serving
 * mainnet-beta (its genesis hash), and holding both programs as executable accounts. Bounded in
 * time: a host that hangs fails the check within `deadlineMs`, so `start` exits with one line
 * instead of serving an API that will never be fed.
 */
import { ALPHA_PROGRAM, BETA_PROGRAM, MAINNET_GENESIS_HASH } from './layout.ts';
import { SolanaRpc } from './rpc.ts';

export interface EndpointCheck {
  /** the chain identity expected (default mainnet-beta's genesis hash) */
  genesisHash?: string;
  /** the whole check fails after this long (default 45 s) */
  deadlineMs?: number;
}

/** Resolves with the finalized tip slot, or rejects with a one-line reason (the URL's origin only). */
export async function checkEndpoint(rpc: SolanaRpc, opts: EndpointCheck = {}): Promise<number> {
  const deadlineMs = opts.deadlineMs ?? 45_000;
  const expected = opts.genesisHash ?? MAINNET_GENESIS_HASH;
  const fail = (why: string) => new Error(`solana: the RPC at ${rpc.origin} is not usable: ${why}`);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(fail(`no answer within ${deadlineMs / 1000} s`)), deadlineMs);
  });
  const check = async (): Promise<number> => {
    let genesis: string;
    try {
      genesis = await rpc.getGenesisHash(2);
    } catch (err) {
      throw fail((err as Error).message);
    }
    if (genesis !== expected) throw fail(`its genesis hash is ${genesis}, not mainnet-beta's ${expected}`);
    const programs = await rpc.getMultipleAccounts([ALPHA_PROGRAM, BETA_PROGRAM], 2).catch((err: unknown) => {
      throw fail((err as Error).message);
    });
    for (const [i, id] of [ALPHA_PROGRAM, BETA_PROGRAM].entries()) {
      const a = programs[i];
      if (!a) throw fail(`program ${id} does not exist there`);
      if (!a.executable) throw fail(`account ${id} is not an executable program`);
    }
    return rpc.call<number>('getSlot', [{ commitment: 'finalized' }], 2).catch((err: unknown) => {
      throw fail((err as Error).message);
    });
  };
  try {
    return await Promise.race([check(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
