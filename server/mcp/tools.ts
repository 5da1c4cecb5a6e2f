/**
 * The compiled tool set of an app: the catalog (catalog.ts) joined with the REST routes it wraps,
 * with generated input schemas, plus `describe_service`. Built once per app at start-up; it throws
 * there when the catalog names a route that does not exist or twins disagree on their parameters.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RestRoute } from '../http/routes/define.ts';
import { REST_TOOLS, type RestTool } from './catalog.ts';
import { DESCRIBE_SERVICE_DESCRIPTION } from './describe.ts';
import { toolInputSchema } from './tool-schema.ts';

/** Name of the tool that describes the service. */
export const DESCRIBE_SERVICE = 'describe_service';

/** The tools of an app. */
export interface ToolSet {
  /** what `tools/list` answers, in order */
  list: Tool[];
  /** REST-wrapping tools by name */
  rest: ReadonlyMap<string, RestTool>;
  /** credits per successful call, by tool name (twins cost the same: checked) */
  costs: Record<string, number>;
  /** tools whose REST twin takes `limit`: their page defaults to {@link TOOL_PAGE_ROWS} rows */
  paged: ReadonlySet<string>;
}

/** Rows of a tool's page when the call gives no `limit`: sized for a model's context, not REST's 500. */
export const TOOL_PAGE_ROWS = 25;

/** Said by every tool that serves both protocols: `protocol` is optional. */
const PROTOCOL_DEFAULT_NOTE = ' Without `protocol` the tool answers for alpha.';

/** Builds the tool set over the app's REST routes. */
export function compileTools(routes: readonly RestRoute[]): ToolSet {
  const byPath = new Map(routes.map((r) => [r.path, r]));
  const list: Tool[] = [
    {
      name: DESCRIBE_SERVICE,
      title: 'Describe the service',
      description: DESCRIBE_SERVICE_DESCRIPTION,
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];
  const rest = new Map<string, RestTool>();
  const costs: Record<string, number> = { [DESCRIBE_SERVICE]: 0 };
  const paged = new Set<string>();
  for (const tool of REST_TOOLS) {
    const twins = [tool.paths.alpha, tool.paths.beta].filter((p): p is string => p !== undefined);
    const cost = new Set(twins.map((p) => byPath.get(p)?.cost));
    if (cost.size !== 1) throw new Error(`MCP tool ${tool.name}: its routes differ in cost`);
    costs[tool.name] = [...cost][0] ?? 0;
    list.push({
      name: tool.name,
      title: tool.title,
      description: `${tool.description}${tool.paths.beta !== undefined ? PROTOCOL_DEFAULT_NOTE : ''} Costs ${costs[tool.name]} credit${costs[tool.name] === 1 ? '' : 's'} per call.`,
      inputSchema: toolInputSchema(tool, byPath, tool.pageRows ?? TOOL_PAGE_ROWS),
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    rest.set(tool.name, tool);
    if (byPath.get(tool.paths.alpha)?.query.entries.limit !== undefined) paged.add(tool.name);
  }
  return { list, rest, costs, paged };
}
