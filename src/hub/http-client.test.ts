import { describe, expect, test } from 'vitest';
import { CallbackLookupUnavailable } from './context.ts';
import { checkCallbackHost } from './http-client.ts';

/** A resolver that answers every name with `addresses`, or fails with `code`. */
function resolver(answer: { addresses: string[] } | { code: string }) {
  return (
    _host: string,
    _options: { all: true },
    callback: (
      error: NodeJS.ErrnoException | null,
      addresses: { address: string; family: number }[],
    ) => void,
  ) =>
    'code' in answer
      ? callback(Object.assign(new Error(answer.code), { code: answer.code }), [])
      : callback(
          null,
          answer.addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
}

const callback = new URL('https://sub.example/push');

describe('checkCallbackHost', () => {
  test('a host with public addresses only is accepted; one private address refuses it', async () => {
    expect(
      await checkCallbackHost(callback, false, resolver({ addresses: ['93.184.215.14'] })),
    ).toBeUndefined();
    expect(
      await checkCallbackHost(
        callback,
        false,
        resolver({ addresses: ['93.184.215.14', '10.0.0.8'] }),
      ),
    ).toBe('the callback host sub.example resolves to 10.0.0.8, which is not public');
  });

  test('a name that does not exist is refused: it does not resolve', async () => {
    expect(await checkCallbackHost(callback, false, resolver({ code: 'ENOTFOUND' }))).toBe(
      'the callback host sub.example does not resolve',
    );
  });

  test('a resolver failing for now is no verdict on the name: it throws, to be retried', async () => {
    for (const code of ['EAI_AGAIN', 'ETIMEOUT', 'ESERVFAIL']) {
      await expect(checkCallbackHost(callback, false, resolver({ code }))).rejects.toBeInstanceOf(
        CallbackLookupUnavailable,
      );
    }
  });
});
