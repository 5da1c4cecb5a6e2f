/**
 * The shape of a REST route as data (path, summary, strict query schema, handler), so one list
 * drives the h3 app (app.ts) and, later, the OpenAPI document and the MCP tools.
 */
import type { H3Event } from 'h3';
import type * as v from 'valibot';
import type { QuerySchema } from '../params.ts';
import type { ApiKeyRecord } from '../../keys/store.ts';
import type { CachePolicy } from '../../cache/policy.ts';

/** What a route handler gets: the event, its validated query and the caller's key record. */
export interface RouteContext<Q> {
  event: H3Event;
  query: Q;
  /** null only on routes with `auth: false` */
  key: ApiKeyRecord | null;
}

/** One REST endpoint (GET only; any other method is a 405). */
export interface RestRoute<S extends QuerySchema = QuerySchema> {
  /** h3 route pattern, e.g. `/v1/alpha/accounts/:address` */
  path: string;
  /** one line for the OpenAPI document */
  summary: string;
  /** strict query schema (see params.ts) */
  query: S;
  /** false only for `/v1/openapi.json`; default true */
  auth?: boolean;
  /**
   * credits per successful (2xx) request (contract §3): 1 for current-state endpoints, 5 for
   * history and search; 0 only for the unauthenticated `/v1/openapi.json`
   */
  cost: 0 | 1 | 5;
  /**
   * valibot schema of the 200 body (`{ data, ... }`): the OpenAPI document is generated from it
   * and tests validate real responses against that document. Every endpoint should have one.
   */
  response?: v.GenericSchema;
  /** how the response cache treats its answers (server/cache/policy.ts); none: no depth, no window */
  cache?: CachePolicy;
  /** returns the JSON body (`{ data, ... }`); may be async */
  handle(ctx: RouteContext<v.InferOutput<S>>): unknown;
}

/** Identity helper that infers the query type of a route for its handler. */
export function defineRoute<S extends QuerySchema>(route: RestRoute<S>): RestRoute<S> {
  return route;
}
