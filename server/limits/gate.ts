/**
 * The one plan gate of REST requests (contract §2 order: route → auth → **plan gate → rate limit**
 * → validation → lookup). `mountRoute` calls {@link admit} right after authentication and before
 * the query is validated, so a limited request never reaches a query; no route checks plans itself.
 *
 * Per request, reading the plan from the key record every time (a `keys plan` change is seen by the
 * KeyStore within a second, no restart):
 * - `internal` plan: passes, is neither rate-limited nor metered, and gets none of the four limit
 *   headers (it has no limit a header could state; a made-up number would mislead a dashboard).
 * - otherwise: the per-key rate limit (429 `rate_limited`, `Retry-After` = seconds until a slot
 *   frees), then the account's monthly credits (429 `credits_exhausted` when the remaining credits
 *   are fewer than the route's cost, `Retry-After` = seconds to the next UTC month). Both 429s, and
 *   every answer after admission (2xx, 4xx, 5xx), carry `RateLimit-Limit`, `RateLimit-Remaining`,
 *   `RateLimit-Reset` (seconds) and `X-Credits-Remaining`.
 * - Credits are reserved at admission (so concurrent requests cannot overdraw the month) and
 *   refunded when the answer is not a 2xx ({@link Admission.refund}): a 4xx (and a 5xx) costs nothing.
 *   The account's request count is increased at admission and kept, whatever the outcome.
 */
import { stageHeader, type HeaderStage } from '../http/answer-headers.ts';
import { ApiError } from '../http/errors.ts';
import { getPlan } from '../keys/plans.ts';
import type { ApiKeyRecord } from '../keys/store.ts';
import { CreditStore, type CreditStoreOptions } from './credits.ts';
import { RateLimiter } from './rate-limiter.ts';

/** The limit state of a running app: the per-key rate limiter and the per-account monthly usage. */
export interface Limits {
  limiter: RateLimiter;
  credits: CreditStore;
  /** flushes the usage and stops its timer */
  close(): void;
}

/** Opens the limits of `dataDir` (loads this month's usage; flushes every 2 s). */
export function openLimits(dataDir: string, opts: CreditStoreOptions = {}): Limits {
  const limiter = new RateLimiter({ clock: opts.clock });
  const credits = CreditStore.open(dataDir, opts);
  return { limiter, credits, close: () => credits.close() };
}

/** An admitted request; `refund()` gives back its credits when the answer is not a 2xx. */
export interface Admission {
  refund(): void;
}

const NOOP: Admission = { refund() {} };

/**
 * Admits the authenticated request of `key` to a route of `cost` credits, or throws the 429.
 * Stages the limit headers for the answer (server/http/answer-headers.ts; the error answer copies them too).
 */
export function admit(event: HeaderStage, key: ApiKeyRecord, cost: number, limits: Limits): Admission {
  const plan = getPlan(key.plan);
  const perMinute = plan.requestsPerMinute;
  if (perMinute === null && plan.creditsPerMonth === null) return NOOP;
  const set = (name: string, value: number) => stageHeader(event, name, String(value));
  const { credits } = limits;

  if (perMinute !== null) {
    const rate = limits.limiter.take(key.id, perMinute);
    set('ratelimit-limit', rate.limit);
    set('ratelimit-remaining', rate.remaining);
    set('ratelimit-reset', rate.resetSeconds);
    if (!rate.allowed) {
      const left = credits.remaining(key.account, plan);
      if (left !== null) set('x-credits-remaining', left);
      throw new ApiError(429, 'rate_limited', `Rate limit of ${perMinute} requests per minute exceeded; retry after ${rate.retryAfterSeconds} s.`, undefined, {
        'retry-after': String(rate.retryAfterSeconds),
      });
    }
  }

  const left = credits.remaining(key.account, plan);
  if (left === null) return NOOP;
  if (left < cost) {
    set('x-credits-remaining', left);
    const wait = credits.secondsToMonthEnd();
    throw new ApiError(429, 'credits_exhausted', `The monthly credits of this account are used up; they renew at the start of the next UTC month.`, undefined, { 'retry-after': String(wait) });
  }
  credits.charge(key.account, cost, 1);
  set('x-credits-remaining', left - cost);
  let refunded = false;
  return {
    refund() {
      if (refunded || cost === 0) return;
      refunded = true;
      credits.charge(key.account, -cost, 0);
      set('x-credits-remaining', credits.remaining(key.account, plan) ?? 0);
    },
  };
}
