// get_insights: the insights dataset, whole or one section of it.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { INSIGHTS_SECTIONS, InsightsDatasetSchema } from '../../core/insights/dataset-schema.ts';
import type { McpDeps } from '../deps.ts';
import { READ_ONLY_ANNOTATIONS, runTool } from '../tool-result.ts';

export function registerGetInsights(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    'get_insights',
    {
      title: 'Get insights',
      description: `What the reviews say in aggregate: ${INSIGHTS_SECTIONS.join(', ')}. Pass \`section\` for one part only; without it the whole insights dataset is returned.`,
      inputSchema: z
        .object({
          section: z
            .enum(INSIGHTS_SECTIONS, { error: `expected one of ${INSIGHTS_SECTIONS.join(', ')}` })
            .optional()
            .describe(`one of ${INSIGHTS_SECTIONS.join(', ')}`),
        })
        .strict(),
      outputSchema: InsightsDatasetSchema.partial(),
      annotations: READ_ONLY_ANNOTATIONS,
    },
    ({ section }) =>
      runTool(() => {
        if (section === undefined) return { ...deps.insights };
        const { schema_version, business_name, review_count } = deps.insights;
        return { schema_version, business_name, review_count, [section]: deps.insights[section] };
      }),
  );
}
