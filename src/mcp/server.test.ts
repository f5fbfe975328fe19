import { expect, test } from 'vitest';
import { MCP_ANSWER_MAX_BYTES, TEXT_MIRROR_MAX_BYTES, shapeResult } from './server.ts';
import { toolResult } from './tool-result.ts';

const sized = (bytes: number) => ({ blob: 'x'.repeat(bytes) });

test('a large result is not sent twice: current clients get the summary as its text', () => {
  const result = shapeResult(toolResult(sized(TEXT_MIRROR_MAX_BYTES * 4), '1 of 9 reviews'), false);
  expect(result.content).toEqual([{ type: 'text', text: '1 of 9 reviews' }]);
  expect(result.structuredContent).toEqual(sized(TEXT_MIRROR_MAX_BYTES * 4));
});

test('a small result, or any result for a client without structured content, has its JSON as text', () => {
  const small = shapeResult(toolResult(sized(100), 'summary'), false);
  expect(JSON.parse((small.content[0] as { text: string }).text)).toEqual(sized(100));
  const legacy = shapeResult(toolResult(sized(TEXT_MIRROR_MAX_BYTES * 4), 'summary'), true);
  expect(JSON.parse((legacy.content[0] as { text: string }).text)).toEqual(
    sized(TEXT_MIRROR_MAX_BYTES * 4),
  );
});

test('no answer is larger than the bound: it becomes an argument error asking for less', () => {
  const result = shapeResult(toolResult(sized(MCP_ANSWER_MAX_BYTES + 1)), false);
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect((result.content[0] as { text: string }).text).toMatch(
    /^Invalid arguments: the answer would be \d+ bytes, over the 1048576-byte limit/,
  );
});
