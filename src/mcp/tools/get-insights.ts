// get_insights: the insights dataset, whole or one section of it.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  INSIGHTS_SECTIONS,
  InsightsDatasetSchema,
  type InsightsDataset,
} from '../../core/insights/dataset-schema.ts';
import type { Entities } from '../../core/insights/entities.ts';
import type { McpDeps } from '../deps.ts';
import { READ_ONLY_ANNOTATIONS, runTool } from '../tool-result.ts';

/** How many items of one list the summary names; the rest are counted. */
const SUMMARY_LIST_MAX = 12;

function listed(items: readonly string[]): string {
  const named = items.slice(0, SUMMARY_LIST_MAX).join(', ');
  const more = items.length - SUMMARY_LIST_MAX;
  return more > 0 ? `${named} and ${more} more` : named;
}

const entityList = (title: string, entities: Entities['services']) => {
  const named = entities.filter((entity) => entity.mention_count > 0);
  return named.length === 0
    ? []
    : [
        `${title} (reviews naming them, average rating): ${listed(named.map((e) => `${e.name} ${e.mention_count} (${e.average_rating})`))}.`,
      ];
};

/**
 * The text of a get_insights answer too large to repeat as JSON: its figures in a paragraph a
 * client that shows only text can still quote (each aspect's reviews and score, the highlights
 * and concerns, the topics, the entities), the quotes and trends left to structuredContent.
 */
export function summarizeInsights(answer: Partial<InsightsDataset>): string {
  const parts = [`Insights of ${answer.review_count} reviews of ${answer.business_name}.`];
  if (answer.aspects) {
    const spoken = Object.entries(answer.aspects)
      .filter(([, aspect]) => aspect.review_count > 0)
      .sort(([, a], [, b]) => b.review_count - a.review_count);
    parts.push(
      spoken.length === 0
        ? 'No review speaks of any aspect.'
        : `Aspects (reviews that speak of it, score from -1 to 1): ${listed(spoken.map(([id, aspect]) => `${id} ${aspect.review_count} (${aspect.score})`))}.`,
    );
  }
  if (answer.summary) {
    const { title, highlights, concerns } = answer.summary;
    if (title !== null) parts.push(`The owner's summary: ${title}.`);
    if (highlights.length > 0) parts.push(`Highlights: ${highlights.map((h) => h.text).join(' ')}`);
    if (concerns.length > 0) parts.push(`Concerns: ${concerns.map((c) => c.text).join(' ')}`);
  }
  if (answer.topics)
    parts.push(
      answer.topics.length === 0
        ? 'No topics.'
        : `Topics (reviews, average rating): ${listed(answer.topics.map((t) => `${t.label} ${t.review_count} (${t.average_rating})`))}.`,
    );
  if (answer.entities)
    parts.push(
      ...entityList('Technicians', answer.entities.technicians),
      ...entityList('Services', answer.entities.services),
      ...entityList('Service areas', answer.entities.service_areas),
    );
  if (answer.faq)
    parts.push(
      `FAQ: ${answer.faq.length} question${answer.faq.length === 1 ? '' : 's'} with answers.`,
    );
  parts.push("All of it, with quotes, trends and each entity's aspects, is in structuredContent.");
  return parts.join(' ');
}

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
      runTool(
        () => {
          if (section === undefined) return { ...deps.insights };
          const { schema_version, business_name, review_count } = deps.insights;
          return { schema_version, business_name, review_count, [section]: deps.insights[section] };
        },
        (answer) => summarizeInsights(answer as Partial<InsightsDataset>),
      ),
  );
}
