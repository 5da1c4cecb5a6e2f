/**
 * The response-cache bound of the routes built on the 24 h activity window (`GET /v1/protocols/stats`,
 * `GET /v1/alpha/markets/stats` and `GET /v1/beta/markets/stats`): their answers read the clock only
 * through `activity_24h(now)` (sql/schema/read-macros.sql), so they hold until a fill leaves or enters
 * that window (sql/api/activity-24h-valid-until.sql).
 */
import type { H3Event } from 'h3';
import { declareValidUntil } from '../cache/answer-declarations.ts';
import type { Service } from '../service.ts';

/**
 * Runs `query(now)` for the clock `now` (read by the caller before its first await, see
 * server/cache/response-cache.ts) and declares, on `event`, until when its answer holds.
 */
export async function withActivityValidity<T>(service: Service, event: H3Event, now: number, query: (now: number) => Promise<T>): Promise<T> {
  const [answer, bound] = await Promise.all([query(now), service.db.query('api/activity-24h-valid-until', { now })]);
  const until = bound[0]?.valid_until;
  declareValidUntil(event, typeof until === 'number' ? until : null);
  return answer;
}
