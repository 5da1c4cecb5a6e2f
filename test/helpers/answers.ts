/**
 * Asks an app many paths a few at a time (the read-side comparison tests: the SQL-only side of a
 * comparison needs no order, and concurrent requests put DuckDB's reader pool on both cores).
 */
import type { H3 } from 'h3';

/**
 * Asks `app` every path, at most `concurrency` in flight, and returns each answer as
 * `"<status> <body>"` in the order of `paths`.
 */
export async function answersOf(app: H3, paths: readonly string[], init: RequestInit, concurrency = 4): Promise<string[]> {
  const answers = new Array<string>(paths.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const i = next++;
      const res = await app.request(paths[i]!, init);
      answers[i] = `${res.status} ${await res.text()}`;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, paths.length) }, worker));
  return answers;
}
