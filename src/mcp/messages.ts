// What a POST to /mcp carries, checked before the SDK sees it, so that a client's mistake gets the
// JSON-RPC error for it with a short reason: a body that is JSON but not a JSON-RPC 2.0 message is
// an Invalid Request (-32600), not a Parse error; a request whose params do not fit its method is
// Invalid params (-32602), not an Internal error carrying a dump of schema issues.
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

export type JsonRpcId = string | number | null;

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly Issue[] } };
}

/** The requests this server answers, each with the SDK's schema for it. */
const REQUEST_SCHEMAS: Record<string, Schema> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A request id as MCP has them: a string or a whole number (JSON-RPC advises against fractions). */
export const isId = (value: unknown): value is string | number =>
  typeof value === 'string' || Number.isSafeInteger(value);

/** The deepest first issue of a (possibly union) schema failure, as `path: message`. */
function firstIssue(issues: readonly Issue[]): string {
  let issue = issues[0];
  const path: PropertyKey[] = [];
  // A union's issue holds each branch's issues, their paths from the union's place; the first
  // branch's first is as good as any.
  while (issue && 'errors' in issue) {
    const branches = (issue as { errors: readonly (readonly Issue[])[] }).errors;
    const next = branches[0]?.[0];
    if (!next) break;
    path.push(...issue.path);
    issue = next;
  }
  if (!issue) return 'it does not fit the schema';
  const where = [...path, ...issue.path].map(String).join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** Why a value is not a JSON-RPC 2.0 message as MCP has them; undefined when it is one. */
export function invalidMessage(message: unknown): string | undefined {
  if (!isObject(message)) return 'a message must be a JSON object';
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in message) {
    if (typeof message.method !== 'string') return 'method must be a string';
    if ('id' in message && !isId(message.id)) return 'id must be a string or a whole number';
    if ('params' in message && !isObject(message.params)) return 'params must be an object';
  } else {
    if (!isId(message.id)) return 'a message without a method is a response and needs an id';
    if ('result' in message === 'error' in message)
      return 'a response has either a result or an error';
  }
  const result = JSONRPCMessageSchema.safeParse(message);
  return result.success ? undefined : firstIssue(result.error?.issues ?? []);
}

/**
 * The path of a "__proto__" key in `value` (JSON.parse makes it an own key; the SDK's schemas copy
 * objects key by key, which would turn it into the copy's prototype and drop it unchecked).
 * Walked without recursion: a 64 KiB body can nest thousands deep.
 */
function protoKeyPath(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, 'params']];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    for (const key of Object.keys(item)) {
      const at = `${path}.${key}`;
      if (key === '__proto__') return at;
      stack.push([(item as Record<string, unknown>)[key], at]);
    }
  }
  return undefined;
}

/** Why a request's params do not fit its method; undefined when they do or it is not a request. */
export function invalidParams(message: Record<string, unknown>): string | undefined {
  if (!('id' in message) || typeof message.method !== 'string') return undefined;
  const proto = protoKeyPath(message.params);
  if (proto !== undefined) return `${proto}: the key "__proto__" is not allowed`;
  const schema = REQUEST_SCHEMAS[message.method];
  if (!schema) return undefined;
  const result = schema.safeParse(message);
  if (!result.success) return firstIssue(result.error?.issues ?? []);
  // The SDK reads the uri as a URL and, when it is none, answers with an internal error.
  if (message.method === 'resources/read') {
    const { uri } = message.params as { uri: string };
    if (!URL.canParse(uri))
      return `params.uri: ${JSON.stringify(uri.slice(0, 100))} is not an absolute URI; resources/list gives them`;
  }
  return undefined;
}

/** A problem with one message of a POST, as the JSON-RPC error it gets. */
export interface MessageProblem {
  code: -32600 | -32602;
  message: string;
  id: JsonRpcId;
}

/**
 * The first problem of the messages of one POST (`batch`: they came as an array): a message that
 * is not JSON-RPC, two requests of a batch with the same id (their answers could not be told
 * apart), or a request whose params do not fit its method.
 */
export function problemOf(
  messages: readonly unknown[],
  batch: boolean,
): MessageProblem | undefined {
  const where = (index: number) => (batch ? `message ${index + 1} of the batch: ` : '');
  const ids = new Set<string | number>();
  for (const [index, message] of messages.entries()) {
    const invalid = invalidMessage(message);
    if (invalid !== undefined)
      return { code: -32600, message: `Invalid Request: ${where(index)}${invalid}`, id: null };
    const { id, method } = message as Record<string, unknown>;
    if (typeof method === 'string' && isId(id)) {
      if (ids.has(id))
        return {
          code: -32600,
          message: `Invalid Request: ${where(index)}the id ${JSON.stringify(id)} is used twice in the batch`,
          id: null,
        };
      ids.add(id);
    }
  }
  for (const [index, message] of messages.entries()) {
    const invalid = invalidParams(message as Record<string, unknown>);
    if (invalid !== undefined)
      return {
        code: -32602,
        message: `Invalid params: ${where(index)}${invalid}`,
        id: (message as { id: string | number }).id,
      };
  }
  return undefined;
}
