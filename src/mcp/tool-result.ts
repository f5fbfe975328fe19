// Tool results: structuredContent with a text block (MCP 2025-06-18, tools §structured content),
// or an error result (isError) whose text names the argument at fault. The text block is the
// JSON itself when it is small or the client predates structured content; otherwise a summary,
// so a large answer is not sent twice (server.ts decides, per request).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ValidationError, describeIssues } from '../core/errors.ts';

/** Every tool here only reads the published dataset. */
export const READ_ONLY_ANNOTATIONS = {
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: false,
} as const;

export function toolResult(structured: Record<string, unknown>, summary?: string): CallToolResult {
  return {
    structuredContent: structured,
    content: [
      {
        type: 'text',
        text: summary ?? 'The result is in structuredContent (see the output schema).',
      },
    ],
  };
}

export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Runs a tool body; a ValidationError from core becomes an error result naming the arguments. */
export function runTool(
  body: () => Record<string, unknown>,
  summarize?: (structured: Record<string, unknown>) => string,
): CallToolResult {
  try {
    const structured = body();
    return toolResult(structured, summarize?.(structured));
  } catch (error) {
    if (error instanceof ValidationError)
      return toolError(`Invalid arguments: ${describeIssues(error.issues)}`);
    throw error;
  }
}
