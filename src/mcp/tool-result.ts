// Tool results: structuredContent plus its JSON text mirror, or an error result (isError) whose
// text names the argument at fault (MCP 2025-06-18, tools §structured content).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ValidationError, describeIssues } from '../core/errors.ts';

/** Every tool here only reads the published dataset. */
export const READ_ONLY_ANNOTATIONS = {
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: false,
} as const;

export function toolResult(structured: Record<string, unknown>): CallToolResult {
  return {
    structuredContent: structured,
    content: [{ type: 'text', text: JSON.stringify(structured) }],
  };
}

export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Runs a tool body; a ValidationError from core becomes an error result naming the arguments. */
export function runTool(body: () => Record<string, unknown>): CallToolResult {
  try {
    return toolResult(body());
  } catch (error) {
    if (error instanceof ValidationError)
      return toolError(`Invalid arguments: ${describeIssues(error.issues)}`);
    throw error;
  }
}
