// The JSON Schemas tools/list shows. Two rules keep the listing small and usable by every client:
// schemas use one `type` per node (a nullable field is `anyOf: [{type: T}, {type: "null"}]`, which
// single-type dialects such as Gemini function declarations accept), and an output schema too large
// to pay for in every conversation is listed briefly, its full shape served as an MCP resource.
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/** Output schemas up to this size (bytes of JSON) are listed whole. */
export const OUTPUT_SCHEMA_INLINE_MAX = 3 * 1024;
/** In a brief output schema, top-level properties up to this size stay whole. */
const BRIEF_PROPERTY_MAX = 1024;

export function outputSchemaResourceUri(tool: string): string {
  return `schema://roofing-reviews/tools/${tool}/output`;
}

/**
 * `type: [A, B]` becomes `anyOf: [{type: A}, {type: B}]`, everywhere in the schema. Also drops the
 * safe-integer bounds zod adds to every integer (no JSON value the server sends comes near them).
 */
export function singleTypeSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(singleTypeSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'type' && Array.isArray(value) && value.length > 1)
      result.anyOf = value.map((type: unknown) => ({ type }));
    else if (key === 'type' && Array.isArray(value)) result.type = value[0];
    else result[key] = singleTypeSchema(value);
  }
  return result;
}

/** A zod schema as the portable JSON Schema a tool lists (draft-07 keywords, as the SDK client validates). */
export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io }) as JsonSchema;
  delete json.$schema;
  return singleTypeSchema(json) as JsonSchema;
}

/**
 * The full schema when small; otherwise the same object with each large top-level property reduced
 * to its type and a pointer to the resource with the full shape. Still accepts exactly what the
 * full schema's top level accepts, so a client validating against it sees no false errors.
 */
export function listedOutputSchema(tool: string, full: JsonSchema): JsonSchema {
  if (JSON.stringify(full).length <= OUTPUT_SCHEMA_INLINE_MAX) return full;
  const properties = (full.properties ?? {}) as Record<string, JsonSchema>;
  const brief = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      if (
        JSON.stringify(property).length <= BRIEF_PROPERTY_MAX ||
        typeof property.type !== 'string'
      )
        return [name, property];
      const given = typeof property.description === 'string' ? property.description : '';
      const described = given === '' || given.endsWith('.') ? given : `${given}.`;
      return [
        name,
        {
          type: property.type,
          description: `${described}${described ? ' ' : ''}Full shape: resource ${outputSchemaResourceUri(tool)}, at /properties/${name}.`,
        },
      ];
    }),
  );
  return { ...full, properties: brief };
}
