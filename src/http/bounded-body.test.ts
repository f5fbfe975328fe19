import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { nodeChunks, readBounded, webChunks } from './bounded-body.ts';

const chunks = (sizes: number[]) => sizes.map((size) => Buffer.alloc(size, 97));

describe('readBounded', () => {
  test.each([
    ['web', (parts: Buffer[]) => webChunks(Readable.toWeb(Readable.from(parts)) as ReadableStream)],
    ['node', (parts: Buffer[]) => nodeChunks(Readable.from(parts))],
  ])('%s: the whole body up to the limit, undefined one byte past it', async (_, source) => {
    expect((await readBounded(source(chunks([3, 4, 3])), 10))?.length).toBe(10);
    expect(await readBounded(source(chunks([3, 4, 4])), 10)).toBeUndefined();
    expect((await readBounded(source([]), 10))?.length).toBe(0);
  });

  test('stops a Node stream past the limit by pausing it, without destroying it', async () => {
    const stream = new Readable({ read() {} });
    const reading = readBounded(nodeChunks(stream), 10);
    for (const chunk of chunks([8, 8, 8])) stream.push(chunk);
    expect(await reading).toBeUndefined();
    expect(stream.isPaused()).toBe(true);
    expect(stream.destroyed).toBe(false);
  });

  test('a stream error is thrown to the reader', async () => {
    const stream = new Readable({ read() {} });
    const reading = readBounded(nodeChunks(stream), 10);
    stream.destroy(new Error('reset'));
    await expect(reading).rejects.toThrow('reset');
  });
});
