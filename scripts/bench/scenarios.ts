// The benchmark's scenarios: the request each target gets (the service, the ceiling, json-server's
// equivalent), and how each answer is checked against the oracle before it is timed.
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { END_DATE } from './generate.ts';
import {
  expectedSearch,
  expectedSince,
  type OracleAnswer,
  type OracleQuery,
  type OracleReview,
  type OracleTechnician,
} from './oracle.ts';

export const TARGETS = ['service', 'ceiling', 'json-server'] as const;
export type Target = (typeof TARGETS)[number];

export interface Request {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  kind: 'dataset' | 'search' | 'since' | 'mcp';
  request: Request;
  /** json-server 0.17's nearest request, or undefined when it has no equivalent. */
  jsonServer?: string;
  query?: OracleQuery;
  since?: string;
}

function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Two years before the newest date: the technician scenario's `since`. */
export const TECH_SINCE = shiftDate(END_DATE, -730);
/** 60 days before the newest date: the since scenario (a moderate answer at every N). */
export const SINCE_DATE = shiftDate(END_DATE, -60);
export const MCP_ARGUMENTS = { query: 'leak', limit: 20 } as const;

export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

function searchPath(query: OracleQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  return `/api/reviews/search?${params.toString().replace(/\+/g, '%20')}`;
}

export function buildScenarios(technicianName: string): Scenario[] {
  const rating5: OracleQuery = { rating: 5, limit: 20 };
  const leak: OracleQuery = { query: 'leak', limit: 20 };
  const tech: OracleQuery = {
    min_rating: 4,
    since: TECH_SINCE,
    mentions_technician: technicianName,
    limit: 50,
  };
  const name = encodeURIComponent(technicianName);
  return [
    {
      name: 'GET /reviews.json',
      kind: 'dataset',
      request: { method: 'GET', path: '/reviews.json' },
      jsonServer: '/reviews',
    },
    {
      name: 'search rating=5',
      kind: 'search',
      request: { method: 'GET', path: searchPath(rating5) },
      jsonServer: '/reviews?rating=5&_limit=20',
      query: rating5,
    },
    {
      name: 'search query=leak',
      kind: 'search',
      request: { method: 'GET', path: searchPath(leak) },
      jsonServer: '/reviews?text_like=leak&_limit=20',
      query: leak,
    },
    {
      name: 'search min_rating+since+technician',
      kind: 'search',
      request: { method: 'GET', path: searchPath(tech) },
      jsonServer: `/reviews?rating_gte=4&date_gte=${TECH_SINCE}&technicians_like=${name}&_limit=50`,
      query: tech,
    },
    {
      name: `since/${SINCE_DATE}`,
      kind: 'since',
      request: { method: 'GET', path: `/api/reviews/since/${SINCE_DATE}` },
      jsonServer: `/reviews?date_gte=${SINCE_DATE}`,
      since: SINCE_DATE,
    },
    {
      name: 'MCP search_reviews',
      kind: 'mcp',
      // Headers (with the session) and body are filled in once the session exists.
      request: { method: 'POST', path: '/mcp' },
      query: { ...MCP_ARGUMENTS },
    },
  ];
}

export interface ReceivedAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export async function send(base: string, request: Request): Promise<ReceivedAnswer> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    ...(request.headers ? { headers: request.headers } : {}),
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** Opens an MCP session (initialize, then notifications/initialized) and returns its headers. */
export async function openMcpSession(base: string): Promise<Record<string, string>> {
  const init = await send(base, {
    method: 'POST',
    path: '/mcp',
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'roofing-reviews-bench', version: '1.0.0' },
      },
    }),
  });
  const session = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !session)
    throw new Error(`MCP initialize failed: ${init.status} ${init.body.toString()}`);
  const result = (JSON.parse(init.body.toString()) as { result?: { protocolVersion?: string } })
    .result;
  const headers = {
    ...MCP_HEADERS,
    'mcp-session-id': session,
    'mcp-protocol-version': result?.protocolVersion ?? LATEST_PROTOCOL_VERSION,
  };
  const initialized = await send(base, {
    method: 'POST',
    path: '/mcp',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  if (initialized.status >= 300)
    throw new Error(`MCP notifications/initialized failed: ${initialized.status}`);
  return headers;
}

export function mcpCallBody(): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search_reviews', arguments: MCP_ARGUMENTS },
  });
}

export interface Oracle {
  reviews: readonly OracleReview[];
  technicians: readonly OracleTechnician[];
}

export function expectedFor(scenario: Scenario, oracle: Oracle): OracleAnswer | undefined {
  if (scenario.query) return expectedSearch(oracle.reviews, oracle.technicians, scenario.query);
  if (scenario.since) return expectedSince(oracle.reviews, scenario.since);
  return undefined;
}

function sameIds(what: string, got: readonly string[], want: readonly string[]): string[] {
  if (got.length === want.length && got.every((id, i) => id === want[i])) return [];
  const at = got.findIndex((id, i) => id !== want[i]);
  return [
    `${what}: ${got.length} ids, expected ${want.length}; first difference at ${at < 0 ? Math.min(got.length, want.length) : at}: ${got[at] ?? '(none)'} vs ${want[at] ?? '(none)'}`,
  ];
}

function parseJson(answer: ReceivedAnswer): unknown {
  return JSON.parse(answer.body.toString('utf8')) as unknown;
}

interface SearchBody {
  total: number;
  count: number;
  limit: number;
  reviews: { id: string }[];
}

/** Problems with the real service's answer (empty when it is right). */
export function checkService(
  scenario: Scenario,
  answer: ReceivedAnswer,
  oracle: Oracle,
  datasetIds: readonly string[],
): string[] {
  if (answer.status !== 200) return [`status ${answer.status}: ${answer.body.toString()}`];
  const expected = expectedFor(scenario, oracle);
  switch (scenario.kind) {
    case 'dataset': {
      const body = parseJson(answer) as { reviews: { id: string }[] };
      return sameIds(
        'reviews',
        body.reviews.map((r) => r.id),
        datasetIds,
      );
    }
    case 'search': {
      const body = parseJson(answer) as SearchBody;
      return checkSearchBody(body, expected!, scenario.query!.limit);
    }
    case 'since': {
      const body = parseJson(answer) as { since: string; count: number; reviews: { id: string }[] };
      const problems = sameIds(
        'reviews',
        body.reviews.map((r) => r.id),
        expected!.ids,
      );
      if (body.since !== scenario.since) problems.push(`since ${body.since}`);
      if (body.count !== expected!.total)
        problems.push(`count ${body.count}, expected ${expected!.total}`);
      return problems;
    }
    case 'mcp': {
      const body = parseJson(answer) as {
        result?: { isError?: boolean; structuredContent?: SearchBody };
        error?: unknown;
      };
      if (!body.result || body.result.isError || !body.result.structuredContent)
        return [`no tool result: ${answer.body.toString().slice(0, 300)}`];
      return checkSearchBody(body.result.structuredContent, expected!, scenario.query!.limit);
    }
  }
}

function checkSearchBody(body: SearchBody, expected: OracleAnswer, limit: number): string[] {
  const problems = sameIds(
    'reviews',
    body.reviews.map((r) => r.id),
    expected.ids,
  );
  if (body.total !== expected.total)
    problems.push(`total ${body.total}, expected ${expected.total}`);
  if (body.count !== expected.ids.length)
    problems.push(`count ${body.count}, expected ${expected.ids.length}`);
  if (body.limit !== limit) problems.push(`limit ${body.limit}, expected ${limit}`);
  return problems;
}

/** The ceiling must answer the service's exact bytes. */
export function checkCeiling(answer: ReceivedAnswer, reference: ReceivedAnswer): string[] {
  if (answer.status !== reference.status) return [`status ${answer.status}`];
  return answer.body.equals(reference.body)
    ? []
    : [`body differs (${answer.body.length} bytes vs ${reference.body.length})`];
}

/** json-server must return the same reviews, in the same order, and X-Total-Count when limited. */
export function checkJsonServer(
  scenario: Scenario,
  answer: ReceivedAnswer,
  oracle: Oracle,
  datasetIds: readonly string[],
): string[] {
  if (answer.status !== 200) return [`status ${answer.status}`];
  const body = parseJson(answer) as { id: string }[];
  const ids = body.map((r) => r.id);
  if (scenario.kind === 'dataset') return sameIds('reviews', ids, datasetIds);
  const expected = expectedFor(scenario, oracle)!;
  const problems = sameIds('reviews', ids, expected.ids);
  if (scenario.kind === 'search') {
    const total = Number(answer.headers.get('x-total-count'));
    if (total !== expected.total)
      problems.push(`X-Total-Count ${total}, expected ${expected.total}`);
  }
  return problems;
}
