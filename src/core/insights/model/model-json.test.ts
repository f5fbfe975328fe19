import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { aspectModelFrom, parseAspectModel, type SerializedModel } from './aspect-model.ts';
import { defaultWordVectors } from './default-model.ts';
import { shareSparse } from './logistic.ts';
import { splitModelJson } from './model-json.ts';

const TABLES = [
  ['a', 2],
  ['b', 3],
] as const;

test('weight tables are read from the text, the rest left to JSON', () => {
  const json = '{"v":1,"a":{"3":[0.1,-0.07],"40":[12.5,0]},"x":[1,2],"b":{},"z":"end"}';
  const split = splitModelJson(json, TABLES)!;
  expect(split.rest).toBe('{"v":1,"a":{},"x":[1,2],"b":{},"z":"end"}');
  expect(JSON.parse(split.rest)).toEqual({ v: 1, a: {}, x: [1, 2], b: {}, z: 'end' });
  expect(split.sections.get('a')!.buckets).toEqual([3, 40]);
  expect([...split.sections.get('a')!.hundredths]).toEqual([10, -7, 1250, 0]);
  expect(split.sections.get('b')!.buckets).toEqual([]);
  // Either order in the file.
  const swapped = splitModelJson('{"b":{"7":[1,-2,0.5]},"a":{"1":[-327.67,327.67]}}', TABLES)!;
  expect([...swapped.sections.get('b')!.hundredths]).toEqual([100, -200, 50]);
  expect([...swapped.sections.get('a')!.hundredths]).toEqual([-32767, 32767]);
  expect(swapped.rest).toBe('{"b":{},"a":{}}');
});

test('text not in the saved form is left to JSON, which says what is wrong', () => {
  for (const json of [
    '{"a":{"3":[0.1,-0.07]}}', // no table b
    '{"a": {"3":[0.1,-0.07]},"b":{}}', // spaces
    '{"a":{"3":[0.123,1]},"b":{}}', // a third decimal
    '{"a":{"3":[1e-7,1]},"b":{}}', // an exponent
    '{"a":{"3":[1.5e2,1]},"b":{}}',
    '{"a":{"3":[327.68,1]},"b":{}}', // beyond 16 bits
    '{"a":{"3":[400,1]},"b":{}}',
    '{"a":{"3":[1]},"b":{}}', // a row of another length
    '{"a":{"3":[1,2,3]},"b":{}}',
    '{"a":{"x":[1,2]},"b":{}}', // not a bucket
    '{"a":{"3":[1,2],},"b":{}}',
    '{"a":{"3":[1,2]}',
    '{"a":{"3":[1,',
    '{"a":{"3":[-,2]},"b":{}}',
    '{"a":{"3":[1.,2]},"b":{}}',
    '{"a":{"99999999999":[1,2]},"b":{}}',
    '{"a":{"3":[007,1]},"b":{}}', // leading zeros
    '{"a":{"3":[-00.5,1]},"b":{}}',
    '{"a":{"03":[1,1]},"b":{}}',
    '{"x":{"a":{"3":[1,2]}},"a":{"3":[7,7]},"b":{}}', // the key inside another object too
    '{"a":{"3":[1,2]},"b":{"1":[5,5,5]},"a":{"3":[9,9]}}', // the key twice
  ])
    expect(splitModelJson(json, TABLES), json).toBeNull();
});

test("a table's key found only inside another object is not the model's table", () => {
  const json = readFileSync(path.join(import.meta.dirname, 'aspect-model.json'), 'utf8');
  const data = JSON.parse(json) as Record<string, unknown>;
  // The polarity table moved under another key: the model has none, whatever the scanner found.
  const moved = JSON.stringify({
    ...data,
    polarity: undefined,
    extra: { polarity: data.polarity },
  });
  expect(() => parseAspectModel(moved, defaultWordVectors())).toThrow(
    'aspect model: polarity must be an object of weight rows, got nothing',
  );
}, 60_000);

test('the shipped model read from its text is the model JSON.parse reads', () => {
  const json = readFileSync(path.join(import.meta.dirname, 'aspect-model.json'), 'utf8');
  const vectors = defaultWordVectors();
  expect(
    splitModelJson(json, [
      ['detection', 11],
      ['polarity', 3],
    ]),
  ).not.toBeNull();
  const fast = parseAspectModel(json, vectors);
  const slow = aspectModelFrom(JSON.parse(json) as SerializedModel, vectors);
  for (const part of ['detection', 'polarity'] as const) {
    const [a, b] = [shareSparse(fast[part]).table, shareSparse(slow[part]).table];
    expect(a.kind).toBe('hundredths');
    expect(a.kind === 'hundredths' && b.kind === 'hundredths').toBe(true);
    if (a.kind === 'hundredths' && b.kind === 'hundredths') {
      expect(a.stride).toBe(b.stride);
      expect(Buffer.from(a.cells.buffer).equals(Buffer.from(b.cells.buffer))).toBe(true);
    }
    expect([...fast[part].weights.keys()]).toEqual([...slow[part].weights.keys()]);
  }
  const others = (model: typeof fast) =>
    Object.entries(model).filter(([key]) => key !== 'detection' && key !== 'polarity');
  expect(others(fast)).toEqual(others(slow));
}, 60_000);
