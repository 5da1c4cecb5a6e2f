/** valibot schemas as JSON Schema 2020-12 (= OpenAPI 3.1), the one converter of the OpenAPI document and the MCP tools. */
import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { RESPONSE_DEFINITIONS } from './response-schemas/definitions.ts';

type Json = Record<string, unknown>;

/** Converter settings shared by every conversion: JSON Schema 2020-12 (= OpenAPI 3.1), refs into components. */
const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'input',
  errorMode: 'throw',
  definitions: RESPONSE_DEFINITIONS,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

/**
 * A valibot schema as JSON Schema 2020-12 (input side, shared records as `$ref`s into
 * components), without the keys that only make sense at a document root. Also builds the MCP
 * tool input schemas (server/mcp/tool-schema.ts) from the same query schemas.
 */
export function convert(schema: v.GenericSchema): Json {
  const json = toJsonSchema(schema, CONVERSION) as Json;
  delete json.$schema;
  delete json.$defs;
  return json;
}
