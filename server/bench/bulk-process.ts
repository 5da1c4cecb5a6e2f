/**
 * Imported first by the bulk benchmarks (server/bench/append.ts), for its side effect: the
 * allocator settings the bulk commands run with (server/db/bulk-allocator.ts), set before any
 * module loads DuckDB, so the benchmark measures what `simulate` and `rebuild` do.
 */
import { useBulkAllocator } from '../db/bulk-allocator.ts';

useBulkAllocator();
