/**
 * While history is still being built (the simulator's backfill, the chain's), every answer says
 * up to when its data is complete: `x-data-complete-to: <ISO time>`, from the source state
 * (server/sources/source-status.ts `completeToMs`). Before that time the journal holds every fill
 * of the source; after it, answers show only what is appended so far. Once the source follows the
 * present the header is gone. Set on the Node response before any listener answers, so answers of
 * the hit lane, of h3 and the parser-level errors of the app all carry it.
 */
import type { Server } from 'node:http';
import { isoFromMs } from '../db/values.ts';
import type { Service } from '../service.ts';

export const COMPLETE_TO_HEADER = 'x-data-complete-to';

/** Adds the header to every answer of `server` while `service`'s source reports a completeness time. */
export function markCompleteness(server: Server, service: Service): void {
  server.prependListener('request', (_req, res) => {
    const to = service.source.get().completeToMs;
    if (to !== null) res.setHeader(COMPLETE_TO_HEADER, isoFromMs(to));
  });
}
