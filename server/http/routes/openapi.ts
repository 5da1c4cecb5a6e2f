/** `GET /v1/openapi.json`: the OpenAPI 3.1 document of every endpoint (no key needed). */
import * as v from 'valibot';
import { defineRoute, type RestRoute } from './define.ts';
import { noQuery } from '../params.ts';
import { OPENAPI_PATH, openApiDocument } from '../openapi.ts';
import type { Service } from '../../service.ts';

/** GET /v1/openapi.json, documenting `routes` (the service's whole list, read on first request). */
export function openapiRoutes(service: Service, routes: () => readonly RestRoute[]): RestRoute[] {
  return [
    defineRoute({
      path: OPENAPI_PATH,
      cost: 0,
      summary: 'The OpenAPI 3.1 document of every endpoint: REST, the fills stream and MCP (no key needed).',
      query: noQuery,
      auth: false,
      // The document itself, not a `{ data }` envelope (what OpenAPI tooling expects at this URL).
      response: v.looseObject({
        openapi: v.literal('3.1.0'),
        info: v.looseObject({ title: v.string(), version: v.string() }),
        // REST routes and the stream are GET operations, MCP a POST
        paths: v.record(v.string(), v.union([v.looseObject({ get: v.looseObject({ summary: v.string() }) }), v.looseObject({ post: v.looseObject({ summary: v.string() }) })])),
        components: v.looseObject({}),
      }),
      handle: () => openApiDocument(service, routes),
    }),
  ];
}
