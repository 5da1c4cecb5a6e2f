/**
 * The service's OpenAPI document without a running server, for the documentation tools
 * (docs/api.md's generator, the OpenAPI lint): a service is opened on an empty temporary data
 * directory only to build the route list, which the document is generated from.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restRoutes } from '../http/app.ts';
import { buildOpenApiDocument } from '../http/openapi.ts';
import { openService } from '../service.ts';

type Json = Record<string, unknown>;

/** The OpenAPI 3.1 document `GET /v1/openapi.json` serves. */
export async function currentOpenApiDocument(): Promise<Json> {
  const dir = mkdtempSync(join(tmpdir(), 'perps-openapi-'));
  const service = await openService({ dataDir: dir });
  try {
    return buildOpenApiDocument(restRoutes(service));
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
