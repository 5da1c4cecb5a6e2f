/**
 * Tool errors: an MCP tool result with `isError: true` whose `structuredContent` is the contract's
 * error body `{ error: { code, message, param? } }` and whose text says the same in one line, so a
 * model reads the code, the message and the argument at fault. Never a JSON-RPC or HTTP failure.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError, type ErrorBody } from '../http/errors.ts';

/** A tool error from the contract's error body. */
export function toolErrorResult(body: ErrorBody | null | undefined): CallToolResult {
  const error = body?.error ?? { code: 'internal_error', message: 'An internal error occurred.' };
  const where = error.param === undefined ? '' : ` (argument '${error.param}')`;
  return {
    isError: true,
    content: [{ type: 'text', text: `Error ${error.code}${where}: ${error.message}` }],
    structuredContent: { error },
  };
}

/** A tool error from anything thrown (an `ApiError` keeps its code, message and param; else 500). */
export function apiErrorResult(thrown: unknown): CallToolResult {
  return toolErrorResult(describeError(thrown).body);
}
