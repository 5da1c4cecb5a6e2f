/**
 * Allocator settings for a process that does bulk work only (`rebuild`, `simulate`, `bench:append`):
 * DuckDB's allocator (its bundled jemalloc) keeps freed pages for a while instead of handing them
 * back to the kernel at once, and DuckDB stops flushing it after every large task.
 *
 * Why: a 1M-row chunk of a rebuild allocates and frees gigabytes; returned to the kernel at once,
 * they are faulted in again by the next chunk (each fault a fresh page the kernel zeroes). Keeping
 * them halves the page faults and the system CPU time and makes the rebuild ~20-25 % faster, for
 * ~0.5 GB more peak RSS (docs/performance.md, "Rebuild" and "Rebuild details").
 * Not for `start`: a serving process is held to 1.5 GiB, and freed pages kept for 10 s would count.
 *
 * jemalloc reads its options once, when DuckDB's library loads: {@link useBulkAllocator} must run
 * before anything imports `@duckdb/node-api` (see server/main/cli-allocator.ts). This module imports
 * nothing that loads DuckDB.
 */
import { log } from '../lib/log.ts';

/** jemalloc's decay of freed pages, dirty and then muzzy, in ms (default 10 s; 60 s took RSS to 4.9 GB for no gain). */
export const BULK_JEMALLOC_CONF = 'dirty_decay_ms:10000,muzzy_decay_ms:10000';

/** DuckDB flushes its allocator after a task that allocated more than this (default 128 MB). */
export const BULK_FLUSH_THRESHOLD = '4GB';

let bulk = false;

/** Whether DuckDB's native library is loaded in this process (then jemalloc has read its options). */
export function duckdbLoaded(): boolean {
  const report = process.report.getReport() as { sharedObjects?: string[] };
  return (report.sharedObjects ?? []).some((path) => /duckdb/i.test(path));
}

/**
 * Marks this process as bulk work: sets `DUCKDB_JE_MALLOC_CONF` (unless the environment sets it)
 * and makes {@link allocatorOptions} raise DuckDB's allocator flush thresholds. Call it before
 * `@duckdb/node-api` is loaded; afterwards jemalloc has read its options (a warning says so) and
 * only the DuckDB thresholds apply. Returns whether jemalloc will see the setting.
 */
export function useBulkAllocator(): boolean {
  bulk = true;
  process.env.DUCKDB_JE_MALLOC_CONF ??= BULK_JEMALLOC_CONF;
  if (!duckdbLoaded()) return true;
  log.warn('bulk allocator settings came after DuckDB loaded: its allocator keeps its own (server/db/bulk-allocator.ts)');
  return false;
}

/**
 * The DuckDB instance options of this process's allocator (for {@link Database.open}): in a bulk
 * process the raised flush thresholds (logged at debug level), else none (DuckDB's defaults).
 */
export function allocatorOptions(): Record<string, string> {
  if (!bulk) return {};
  log.debug(`allocator: bulk (DUCKDB_JE_MALLOC_CONF=${process.env.DUCKDB_JE_MALLOC_CONF}, flush thresholds ${BULK_FLUSH_THRESHOLD})`);
  return { allocator_flush_threshold: BULK_FLUSH_THRESHOLD, allocator_bulk_deallocation_flush_threshold: BULK_FLUSH_THRESHOLD };
}
