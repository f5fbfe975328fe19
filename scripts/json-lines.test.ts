import { expect, test } from 'vitest';
import { jsonLines } from './json-lines.ts';

async function linesOf(chunks: (string | Buffer)[]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of jsonLines(chunks)) lines.push(line);
  return lines;
}

test('splits at \\n and \\r\\n only: U+2028 and U+2029 inside a JSON string stay in its line', async () => {
  const first = '{"id":"a","text":"Great roof.\u2028The crew was tidy.\u2029"}';
  expect(await linesOf([`${first}\r\n{"id":"b"}\n`, '\n{"id":"c"}'])).toEqual([
    first,
    '{"id":"b"}',
    '',
    '{"id":"c"}',
  ]);
  expect(JSON.parse((await linesOf([first]))[0]!)).toMatchObject({ id: 'a' });
});

test('joins lines and characters that chunks cut apart', async () => {
  const bytes = Buffer.from('{"text":"Zoë\u2028Ørsted"}\n{"id":"x"}', 'utf8');
  const chunks = Array.from(bytes, (byte) => Buffer.from([byte]));
  expect(await linesOf(chunks)).toEqual(['{"text":"Zoë\u2028Ørsted"}', '{"id":"x"}']);
});
