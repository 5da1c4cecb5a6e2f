/**
 * Imported first by server/main/cli.ts, for its side effect: a bulk command (`rebuild`, `simulate`)
 * gets the bulk allocator settings (server/db/bulk-allocator.ts) before any module loads DuckDB.
 * ES modules are evaluated in the order of their imports, and this one imports nothing that does.
 */
import { useBulkAllocator } from '../db/bulk-allocator.ts';

const BULK_COMMANDS: ReadonlySet<string> = new Set(['rebuild', 'simulate']);

if (BULK_COMMANDS.has(process.argv[2] ?? '')) useBulkAllocator();
