// The handler a tool's register function gives the MCP server, to call it without a transport.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpDeps } from '../../src/mcp/deps.ts';

export type ToolHandler = (args: never) => CallToolResult | Promise<CallToolResult>;

export function toolHandler(
  register: (server: McpServer, deps: McpDeps) => unknown,
  deps: Partial<McpDeps>,
): (args?: unknown) => Promise<CallToolResult> {
  let handler: ToolHandler | undefined;
  const server = {
    registerTool: (_name: string, _config: unknown, registered: ToolHandler) => {
      handler = registered;
      return {};
    },
  } as unknown as McpServer;
  register(server, deps as McpDeps);
  return async (args = {}) => await handler!(args as never);
}
