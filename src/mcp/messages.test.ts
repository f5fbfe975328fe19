import { describe, expect, test } from 'vitest';
import { invalidMessage, invalidParams, problemOf } from './messages.ts';

describe('invalidMessage', () => {
  test('requests, notifications and responses pass', () => {
    expect(invalidMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeUndefined();
    expect(invalidMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(invalidMessage({ jsonrpc: '2.0', id: 'a', result: {} })).toBeUndefined();
    expect(
      invalidMessage({ jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } }),
    ).toBeUndefined();
  });

  test('what the SDK schema alone refuses is named by its path', () => {
    expect(
      invalidMessage({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { progressToken: {} } },
      }),
    ).toMatch(/^params\._meta\.progressToken: /);
  });

  test('a response with both a result and an error is refused', () => {
    expect(
      invalidMessage({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } }),
    ).toBe('a response has either a result or an error');
  });
});

describe('invalidParams', () => {
  test('methods this server does not answer and notifications are left to the SDK', () => {
    expect(
      invalidParams({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: {} }),
    ).toBeUndefined();
    expect(invalidParams({ jsonrpc: '2.0', method: 'tools/call', params: {} })).toBeUndefined();
  });
});

describe('__proto__ keys', () => {
  test('are refused wherever they are in params, named by their path', () => {
    const message = JSON.parse(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_reviews","arguments":{"__proto__":{"rating":1}}}}',
    ) as Record<string, unknown>;
    expect(invalidParams(message)).toBe(
      'params.arguments.__proto__: the key "__proto__" is not allowed',
    );
  });

  test('a deeply nested body is walked without running out of stack', () => {
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    const message = JSON.parse(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":${deep}}}}`,
    ) as Record<string, unknown>;
    expect(invalidParams(message)).toBeUndefined();
  });
});

describe('problemOf', () => {
  test('a bad message in a batch is named by its place; the first problem wins', () => {
    expect(
      problemOf(
        [{ jsonrpc: '2.0', id: 1, method: 'ping' }, 7, { jsonrpc: '2.0', id: 1, method: 'ping' }],
        true,
      ),
    ).toEqual({
      code: -32600,
      message: 'Invalid Request: message 2 of the batch: a message must be a JSON object',
      id: null,
    });
  });

  test('bad params carry the request id', () => {
    expect(
      problemOf([{ jsonrpc: '2.0', id: 'x', method: 'resources/read', params: { uri: 3 } }], false),
    ).toMatchObject({
      code: -32602,
      id: 'x',
      message: expect.stringMatching(/^Invalid params: params\.uri: /),
    });
  });

  test('a response and a request may share an id', () => {
    expect(
      problemOf(
        [
          { jsonrpc: '2.0', id: 1, result: {} },
          { jsonrpc: '2.0', id: 1, method: 'ping' },
        ],
        true,
      ),
    ).toBeUndefined();
  });
});
