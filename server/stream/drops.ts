/** Stream sockets the server closed for a problem, by code, since start (for `/metrics`). */
export const streamDrops: Record<string, number> = {};

/** Counts one socket closed with `code`. */
export function countDrop(code: string): void {
  streamDrops[code] = (streamDrops[code] ?? 0) + 1;
}
