/**
 * The service's route list and OpenAPI document without a running server, for the documentation
 * tools (docs/api.md's generator, the OpenAPI lint): a service is opened on an empty temporary data
 * directory only to build the route list, which the document is generated from.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restRoutes } from '../main/app.ts';
import { buildOpenApiDocument } from '../http/openapi.ts';
import type { RestRoute } from '../http/routes/define.ts';
import { openService } from '../service.ts';

type Json = Record<string, unknown>;

/** Runs `fn` over the service's REST routes and their OpenAPI document. */
export async function withRouteList<T>(fn: (routes: RestRoute[], doc: Json) => T | Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'perps-openapi-'));
  const service = await openService({ dataDir: dir });
  try {
    const routes = restRoutes(service);
    return await fn(routes, buildOpenApiDocument(routes));
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The OpenAPI 3.1 document `GET /v1/openapi.json` serves. */
export function currentOpenApiDocument(): Promise<Json> {
  return withRouteList((_routes, doc) => doc);
}
