// Mcp-Session-Id as an HMAC-signed token: any instance that shares MCP_SESSION_SECRET can check it,
// and nothing is stored. Format: `v1.<issued-at, base36 seconds>.<random>.<base64url HMAC-SHA256>`.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A session lives a day; after that the client gets 404 and initializes again (MCP lifecycle). */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;
const VERSION = 'v1';

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

export function createSessionToken(secret: string, nowMs: number): string {
  const payload = `${VERSION}.${Math.floor(nowMs / 1000).toString(36)}.${randomBytes(12).toString('base64url')}`;
  return `${payload}.${sign(secret, payload)}`;
}

export function verifySessionToken(secret: string, token: string, nowMs: number): boolean {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) return false;
  const [version, issued, nonce, signature] = parts as [string, string, string, string];
  const expected = Buffer.from(sign(secret, `${version}.${issued}.${nonce}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const issuedSeconds = Number.parseInt(issued, 36);
  const age = Math.floor(nowMs / 1000) - issuedSeconds;
  return Number.isFinite(issuedSeconds) && age >= -60 && age <= SESSION_TTL_SECONDS;
}
