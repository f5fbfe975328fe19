import { expect, test } from 'vitest';
import { SESSION_TTL_SECONDS, createSessionToken, verifySessionToken } from './session.ts';

const secret = 'a-test-secret-of-some-length';
const now = Date.UTC(2026, 0, 1);

test('a token verifies with the secret that signed it', () => {
  const token = createSessionToken(secret, now);
  expect(token).toMatch(/^v1\.[0-9a-z]+\.[\w-]+\.[\w-]+$/);
  expect(verifySessionToken(secret, token, now)).toBe(true);
});

test('tokens are unique', () => {
  expect(createSessionToken(secret, now)).not.toBe(createSessionToken(secret, now));
});

test('another secret rejects the token', () => {
  expect(verifySessionToken('another-secret-entirely', createSessionToken(secret, now), now)).toBe(
    false,
  );
});

test('any change to the token is rejected', () => {
  const token = createSessionToken(secret, now);
  const [version, issued, nonce, signature] = token.split('.');
  expect(verifySessionToken(secret, `${version}.${issued}.${nonce}x.${signature}`, now)).toBe(
    false,
  );
  expect(
    verifySessionToken(
      secret,
      `${version}.${(Number.parseInt(issued!, 36) + 1).toString(36)}.${nonce}.${signature}`,
      now,
    ),
  ).toBe(false);
  expect(verifySessionToken(secret, `${token}A`, now)).toBe(false);
  expect(verifySessionToken(secret, 'garbage', now)).toBe(false);
  expect(verifySessionToken(secret, '', now)).toBe(false);
});

test('a token expires after the session lifetime', () => {
  const token = createSessionToken(secret, now);
  expect(verifySessionToken(secret, token, now + SESSION_TTL_SECONDS * 1000)).toBe(true);
  expect(verifySessionToken(secret, token, now + (SESSION_TTL_SECONDS + 1) * 1000)).toBe(false);
});
