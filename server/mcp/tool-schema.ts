/**
 * Input schemas of the MCP tools, generated from the REST routes they wrap: the route's strict
 * valibot query schema converted with the OpenAPI document's converter (server/http/openapi-convert.ts),
 * plus the path parameters of the route and, for tools wrapping alpha and beta twins, an optional
 * `protocol` (default alpha, so clients written before beta's twins existed keep working). Nothing is hand-kept: a new query parameter on a route appears in its tool.
 */
import { convert } from '../http/openapi-convert.ts';
import { openApiPath } from '../http/openapi-operations.ts';
import type { RestRoute } from '../http/routes/define.ts';
import type { RestTool } from './catalog.ts';

type Json = Record<string, unknown>;

/** JSON Schema of a tool's input (always `type: object`). */
export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, Json>;
  required?: string[];
  additionalProperties: false;
  [key: string]: unknown;
}

/** The path parameters a tool may take, as tool arguments. */
const PATH_ARGUMENTS: Record<string, Json> = {
  address: { type: 'string', description: 'Base58 wallet address of the trader (32-44 characters).' },
  id: {
    type: 'integer',
    minimum: 0,
    description: 'Integer position_id of one lifecycle (from account_position_history, search_open_positions or search_liquidations).',
  },
};

const PROTOCOL_ARGUMENT: Json = {
  type: 'string',
  enum: ['alpha', 'beta'],
  default: 'alpha',
  description: 'Protocol: alpha (GMX-Solana) or beta (Jupiter Perps); omitted = alpha.',
};

/** True when the tool wraps alpha and beta twins (and so takes a `protocol` argument). */
export function hasProtocolArgument(tool: RestTool): boolean {
  return tool.paths.beta !== undefined;
}

/** The path parameter names of an h3 route pattern, in order. */
export function pathParameters(path: string): string[] {
  return openApiPath(path).params;
}

/**
 * Builds a tool's input schema from the route(s) it wraps. Twins must take the same query
 * parameters (else the tool could not have one schema): a mismatch throws at start-up.
 */
export function toolInputSchema(tool: RestTool, routes: ReadonlyMap<string, RestRoute>, pageRows?: number): ToolInputSchema {
  const alpha = routes.get(tool.paths.alpha);
  if (!alpha) throw new Error(`MCP tool ${tool.name}: no REST route ${tool.paths.alpha}`);
  const query = convert(alpha.query);
  if (tool.paths.beta !== undefined) {
    const beta = routes.get(tool.paths.beta);
    if (!beta) throw new Error(`MCP tool ${tool.name}: no REST route ${tool.paths.beta}`);
    const other = convert(beta.query);
    if (JSON.stringify(other) !== JSON.stringify(query)) {
      // twins that select their series differently (funding history: alpha by variant, beta by
      // market): every parameter of either, required only where both require it; the REST
      // validation of the chosen protocol then names what is missing
      const props = { ...(other.properties as Record<string, Json> | undefined), ...(query.properties as Record<string, Json> | undefined) };
      const both = ((query.required ?? []) as string[]).filter((n) => ((other.required ?? []) as string[]).includes(n));
      query.properties = props;
      query.required = both;
    }
  }
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  if (hasProtocolArgument(tool)) {
    properties.protocol = PROTOCOL_ARGUMENT;
  }
  for (const name of pathParameters(tool.paths.alpha)) {
    properties[name] = PATH_ARGUMENTS[name] ?? { type: 'string', description: `Path parameter ${name}.` };
    required.push(name);
  }
  Object.assign(properties, (query.properties ?? {}) as Record<string, Json>);
  // a tool's page defaults to fewer rows than REST's (a model's context): say so where `limit` is
  if (pageRows !== undefined && properties.limit) {
    properties.limit = { ...properties.limit, description: `Rows per page, 1-500 (default ${pageRows} for this tool; REST's default is 500).` };
  }
  required.push(...((query.required ?? []) as string[]));
  const schema: ToolInputSchema = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = required;
  return schema;
}
