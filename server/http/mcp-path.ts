/** Path of the MCP endpoint: its own module so the OpenAPI document can name it without loading the MCP server. */
export const MCP_PATH = '/v1/mcp';
