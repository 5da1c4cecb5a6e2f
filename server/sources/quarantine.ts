/**
 * Quarantine: what a source decoded but must not store (a fill that fails validation, an event
 * of an undocumented length, a transaction its decoder could not handle). Each entry is one JSON
 * line in `<data>/quarantine/<source>.jsonl` with its transaction, reason and raw bytes, so a
 * fixed decoder can re-decode it later; it is logged and counted in `service.source`
 * (`quarantined`), and the source goes on. An entry met again (a pass retried from its
 * checkpoint) is not written twice.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { log } from '../lib/log.ts';
import type { SourceStatus } from './source-status.ts';

export interface QuarantineEntry {
  tx: string;
  slot: number;
  /** the event (or `transaction`) set aside */
  event: string;
  /** position of the fill among the transaction's fill events, when there is one */
  eventIndex?: number;
  reason: string;
  /** the event's bytes (discriminator + body), base64 */
  data?: string;
  /** the fill as decoded, when it got that far */
  fill?: unknown;
}

export class Quarantine {
  readonly file: string;
  private readonly seen = new Set<string>();

  constructor(
    dataDir: string,
    source: string,
    private readonly status?: SourceStatus,
  ) {
    const dir = join(dataDir, 'quarantine');
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${source}.jsonl`);
    if (existsSync(this.file)) {
      for (const line of readFileSync(this.file, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          this.seen.add(Quarantine.key(JSON.parse(line) as QuarantineEntry));
        } catch {
          // a line cut short by a crash: the entry will be written again when met
        }
      }
    }
    this.publish();
  }

  private static key(e: QuarantineEntry): string {
    return `${e.tx}:${e.event}:${e.eventIndex ?? ''}:${e.reason}`;
  }

  get count(): number {
    return this.seen.size;
  }

  /** Sets an entry aside: on disk, in the log, in the count. */
  add(entry: QuarantineEntry): void {
    const key = Quarantine.key(entry);
    if (this.seen.has(key)) return;
    appendFileSync(this.file, `${JSON.stringify({ at: new Date().toISOString(), ...entry }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
    this.seen.add(key);
    log.warn(`quarantined ${entry.event} of transaction ${entry.tx} (slot ${entry.slot}): ${entry.reason}`);
    this.publish();
  }

  private publish(): void {
    if (!this.status) return;
    const s = this.status.get();
    this.status.set(s.phase, { quarantined: this.seen.size });
  }
}
