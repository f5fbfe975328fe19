import { expect, test } from 'vitest';
import { z } from 'zod';
import {
  OUTPUT_SCHEMA_INLINE_MAX,
  listedOutputSchema,
  outputSchemaResourceUri,
  toolJsonSchema,
} from './tool-schemas.ts';

test('a nullable field becomes anyOf with one type per branch; an optional one stays optional', () => {
  const schema = z.object({
    title: z.string().nullable().describe('may be null'),
    score: z.number().min(-1).nullable(),
    count: z.number().int(),
    note: z.string().optional(),
  });
  expect(toolJsonSchema(schema, 'output')).toEqual({
    type: 'object',
    properties: {
      title: { description: 'may be null', anyOf: [{ type: 'string' }, { type: 'null' }] },
      score: { anyOf: [{ type: 'number', minimum: -1 }, { type: 'null' }] },
      count: { type: 'integer' },
      note: { type: 'string' },
    },
    required: ['title', 'score', 'count'],
    additionalProperties: false,
  });
});

test('a small output schema is listed whole', () => {
  const full = toolJsonSchema(z.object({ a: z.string() }), 'output');
  expect(listedOutputSchema('tool', full)).toBe(full);
});

test('a large output schema keeps its top level and reduces large properties to type and pointer', () => {
  const big = z.object(
    Object.fromEntries(
      Array.from({ length: 80 }, (_, index) => [
        `field_${index}`,
        z.string().describe('x'.repeat(40)),
      ]),
    ),
  );
  const full = toolJsonSchema(
    z.object({ version: z.literal('1'), data: big.describe('the data'), list: z.array(big) }),
    'output',
  );
  expect(JSON.stringify(full).length).toBeGreaterThan(OUTPUT_SCHEMA_INLINE_MAX);
  const listed = listedOutputSchema('big_tool', full);
  const pointer = `Full shape: resource ${outputSchemaResourceUri('big_tool')}`;
  expect(listed).toEqual({
    type: 'object',
    properties: {
      version: { type: 'string', const: '1' },
      data: { type: 'object', description: `the data. ${pointer}, at /properties/data.` },
      list: { type: 'array', description: `${pointer}, at /properties/list.` },
    },
    required: ['version', 'data', 'list'],
    additionalProperties: false,
  });
});
