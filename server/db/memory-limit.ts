/** Whether `limit` is a size DuckDB's memory_limit takes (and nothing else: it goes into SQL). */
export function isMemoryLimit(limit: string): boolean {
  return /^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(limit);
}
