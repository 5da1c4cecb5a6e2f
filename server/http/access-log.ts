/**
 * The access log: one JSON line per answered request, `{ time, method, route, status, ms,
 * request_id, key_id }`, to stdout or a file (`PERPS_ACCESS_LOG`: `stdout`, `off`, or a path,
 * appended to). The route is its template (no address, no query string: a key sent as a query
 * parameter never reaches the log), and the key is logged by its public id only, never itself.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { keyIdOf } from '../keys/format.ts';

export interface AccessEntry {
  method: string;
  route: string;
  status: number;
  ms: number;
  requestId: string | null;
  keyId: string | null;
}

export interface AccessLog {
  write(entry: AccessEntry): void;
  close(): Promise<void>;
}

/** The public id of the request's `x-api-key` when it is shaped like a key (never the key). */
export function keyIdOfRequest(req: IncomingMessage): string | null {
  const raw = req.headers['x-api-key'];
  return typeof raw === 'string' ? keyIdOf(raw.trim()) : null;
}

const line = (e: AccessEntry): string =>
  `${JSON.stringify({ time: new Date().toISOString(), method: e.method, route: e.route, status: e.status, ms: Math.round(e.ms * 10) / 10, request_id: e.requestId, key_id: e.keyId })}\n`;

/** Opens the access log a `PERPS_ACCESS_LOG` value names (`off`: none). */
export function openAccessLog(target: string): AccessLog | undefined {
  if (target === 'off' || target === '') return undefined;
  if (target === 'stdout') return { write: (e) => void process.stdout.write(line(e)), close: async () => undefined };
  const out: WriteStream = createWriteStream(target, { flags: 'a', mode: 0o640 });
  out.on('error', () => undefined); // a log that cannot be written must not take the server down
  return {
    write: (e) => void out.write(line(e)),
    close: () => new Promise((resolve) => out.end(resolve)),
  };
}
