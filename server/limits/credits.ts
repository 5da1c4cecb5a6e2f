/**
 * Monthly usage per account (contract §3): requests and credits of the current UTC calendar month,
 * kept in memory (no disk write on the request path) and flushed every `flushMs` (2 s) and on
 * close to `<dataDir>/usage/<YYYY-MM>.json` (mode 0600), atomically (a temp file, fsynced, renamed).
 * The timer's flushes write and fsync off the event loop: under metered traffic the totals change
 * between every two flushes, and the synchronous write held the loop for its two fsyncs every 2 s.
 * Each flush is numbered when it takes its totals, and a file is renamed into place only if no
 * later flush of it got there first, so a slow background flush never replaces newer totals (the
 * month's roll-over and `close` flush synchronously).
 *
 * The file holds cumulative totals per account, never deltas: a flush rewrites the whole month, so
 * flushing the same totals twice changes nothing (no double count), and a crash (kill -9) loses at
 * most the usage since the last flush (≤ `flushMs`). The month's file is loaded at start; at the
 * first use after a UTC month starts, the old month's totals are written (whether or not a
 * background flush already took them: it may still fail; a failed write is retried by every later
 * flush) and the new one starts at zero (or from its file, if a previous run already wrote one).
 *
 * Only the server writes these files; `keys usage` reads them (so it may lag by up to `flushMs`).
 */
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fsyncPathAsync, writeFileAtomic, writeTempFileAsync } from '../lib/fs-atomic.ts';
import { log } from '../lib/log.ts';
import type { Plan } from '../keys/plans.ts';

/** Usage of one account in one month. */
export interface AccountUsage {
  requests: number;
  credits: number;
}

interface UsageFile {
  version: 1;
  month: string;
  accounts: Record<string, AccountUsage>;
}

/** `YYYY-MM` (UTC) of an epoch-ms time. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** Epoch ms of the start of the UTC month after the one holding `ms`. */
export function nextMonthStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Path of the usage file of `month` (`YYYY-MM`). */
export function usagePath(dataDir: string, month: string): string {
  return join(dataDir, 'usage', `${month}.json`);
}

/** Reads the totals of one month (empty when the file does not exist). Throws on a corrupt file. */
export function readUsageFile(dataDir: string, month: string): Map<string, AccountUsage> {
  const path = usagePath(dataDir, month);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw err;
  }
  const doc = JSON.parse(text) as Partial<UsageFile>;
  if (doc.version !== 1 || doc.month !== month || typeof doc.accounts !== 'object' || doc.accounts === null) {
    throw new Error(`${path}: not a version 1 usage file for ${month}`);
  }
  const out = new Map<string, AccountUsage>();
  for (const [account, u] of Object.entries(doc.accounts)) {
    const requests = Number(u?.requests);
    const credits = Number(u?.credits);
    if (!Number.isFinite(requests) || !Number.isFinite(credits)) throw new Error(`${path}: malformed entry for ${account}`);
    out.set(account, { requests, credits });
  }
  return out;
}

/** Options of {@link CreditStore.open}. */
export interface CreditStoreOptions {
  /** epoch ms; default Date.now */
  clock?: () => number;
  /** flush period, ms; default 2000; 0 = no timer (flush only on demand and on close) */
  flushMs?: number;
}

export class CreditStore {
  private month: string;
  private usage: Map<string, AccountUsage>;
  private dirty = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly clock: () => number;
  /** the number of the last flush that took the totals */
  private flushes = 0;
  /** per file, the number of the flush whose totals it holds */
  private readonly landed = new Map<string, number>();
  /** a background flush under way (the timer starts no other meanwhile) */
  private flushing = false;
  /** the final totals of months that are over, by file, until a write of them lands (see current) */
  private readonly unwritten = new Map<string, { text: string; n: number }>();

  private constructor(
    readonly dataDir: string,
    opts: CreditStoreOptions,
  ) {
    this.clock = opts.clock ?? Date.now;
    this.month = monthOf(this.clock());
    this.usage = readUsageFile(dataDir, this.month);
    const every = opts.flushMs ?? 2000;
    if (every > 0) {
      this.timer = setInterval(() => void this.flushInBackground(), every);
      this.timer.unref();
    }
  }

  /** Opens the usage of `dataDir`, loading the current month's totals. */
  static open(dataDir: string, opts: CreditStoreOptions = {}): CreditStore {
    return new CreditStore(dataDir, opts);
  }

  /** Rolls over to the month of `now` when a UTC month boundary has passed. */
  private current(): Map<string, AccountUsage> {
    const month = monthOf(this.clock());
    if (month !== this.month) {
      // the old month's totals are written now even when not dirty: a background flush may have
      // taken them and still fail; if this write fails, every later flush retries it
      const { path, text, n } = this.takeTotals();
      this.unwritten.set(path, { text, n });
      this.flushQuietly();
      this.month = month;
      try {
        this.usage = readUsageFile(this.dataDir, month);
      } catch (err) {
        log.warn(`usage: cannot read ${usagePath(this.dataDir, month)}; starting the month from zero:`, (err as Error).message);
        this.usage = new Map();
      }
      this.dirty = false;
    }
    return this.usage;
  }

  /** Usage of `account` this month (zeros when none). */
  used(account: string): AccountUsage {
    const u = this.current().get(account);
    return { requests: u?.requests ?? 0, credits: u?.credits ?? 0 };
  }

  /** Credits `account` may still spend this month under `plan`; null when the plan is not metered. */
  remaining(account: string, plan: Readonly<Plan>): number | null {
    if (plan.creditsPerMonth === null) return null;
    return Math.max(0, plan.creditsPerMonth - this.used(account).credits);
  }

  /** Adds `requests` and `credits` (may be negative: a refund) to `account`'s month. */
  charge(account: string, credits: number, requests = 1): void {
    const usage = this.current();
    let u = usage.get(account);
    if (!u) {
      u = { requests: 0, credits: 0 };
      usage.set(account, u);
    }
    u.requests += requests;
    u.credits = Math.max(0, u.credits + credits);
    this.dirty = true;
  }

  /** Seconds from now to the start of the next UTC month (≥ 1): `Retry-After` of `credits_exhausted`. */
  secondsToMonthEnd(): number {
    const now = this.clock();
    return Math.max(1, Math.ceil((nextMonthStart(now) - now) / 1000));
  }

  /** The month's totals as the file holds them, numbered; marks them flushed. */
  private takeTotals(): { path: string; text: string; n: number } {
    const accounts: Record<string, AccountUsage> = {};
    for (const [account, u] of [...this.usage].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) accounts[account] = { ...u };
    const doc: UsageFile = { version: 1, month: this.month, accounts };
    // cleared when taken: a charge during the write is not lost, it makes the next flush
    this.dirty = false;
    return { path: usagePath(this.dataDir, this.month), text: `${JSON.stringify(doc)}\n`, n: ++this.flushes };
  }

  /** Whether a flush numbered `n` may still replace `path` (no later one has). */
  private mayLand(path: string, n: number): boolean {
    return (this.landed.get(path) ?? 0) < n;
  }

  /** Writes one month's file synchronously (its directory made first). */
  private writeUsageFile(path: string, text: string): void {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileAtomic(path, text, 0o600);
  }

  /** Writes the months that are over whose final totals have not landed yet, synchronously. */
  private writeUnwritten(): void {
    for (const [path, { text, n }] of this.unwritten) {
      this.writeUsageFile(path, text);
      this.landed.set(path, n);
      this.unwritten.delete(path);
    }
  }

  /** Writes the month's totals when they changed since the last flush (synchronously). */
  flush(): void {
    this.writeUnwritten();
    if (!this.dirty) return;
    const { path, text, n } = this.takeTotals();
    try {
      this.writeUsageFile(path, text);
      this.landed.set(path, n);
    } catch (err) {
      this.dirty = true;
      throw err;
    }
  }

  /**
   * The timer's flush: as {@link flush}, with the write and fsyncs off the event loop; one at a
   * time (none starts while one is under way). Resolves when it is done; never rejects (a failure
   * is logged and the totals flushed again next time).
   */
  flushInBackground(): Promise<void> {
    if (this.flushing) return Promise.resolve();
    if (this.unwritten.size) this.flushQuietly(); // only after a failed write at a month's end
    if (!this.dirty) return Promise.resolve();
    this.flushing = true;
    const { path, text, n } = this.takeTotals();
    return Promise.resolve()
      .then(() => mkdirSync(dirname(path), { recursive: true, mode: 0o700 }))
      .then(() => writeTempFileAsync(path, text, 0o600))
      .then(async (tmp) => {
        // decided and renamed in one synchronous step, so no other flush lands in between
        if (!this.mayLand(path, n)) return await unlink(tmp);
        renameSync(tmp, path);
        this.landed.set(path, n);
        await fsyncPathAsync(dirname(path));
      })
      .catch((err: unknown) => {
        this.dirty = true;
        log.warn('usage: flush failed (will retry):', (err as Error).message);
      })
      .finally(() => {
        this.flushing = false;
      });
  }

  private flushQuietly(): void {
    try {
      this.flush();
    } catch (err) {
      log.warn('usage: flush failed (will retry):', (err as Error).message);
    }
  }

  /** Stops the timer and writes the last totals. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.flush();
  }
}
