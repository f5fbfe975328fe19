// The MCP protocol versions the endpoint speaks: the SDK's, newest first. Negotiation answers the
// client's version when it is one of these, else the newest.
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';

export const MCP_PROTOCOL_VERSION: string = LATEST_PROTOCOL_VERSION;
export const MCP_OLDER_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS.filter(
  (version) => version !== LATEST_PROTOCOL_VERSION,
);

/** "2025-11-25 (also accepts 2025-06-18, 2025-03-26, …)" for the guides and the API description. */
export function describeMcpProtocolVersions(): string {
  return `${MCP_PROTOCOL_VERSION} (older clients may ask for ${MCP_OLDER_PROTOCOL_VERSIONS.join(', ')})`;
}
