// What the MCP tools read: the published site, as the Node server (or a serverless host) holds it.
import type { InsightsDataset } from '../core/insights/dataset-schema.ts';
import type { ReviewIndex } from '../core/review-index.ts';
import type { AggregateRating, Business } from '../core/review.ts';

export interface McpResourceFile {
  name: string;
  title: string;
  description: string;
  uri: string;
  mimeType: string;
  /** Bytes of the resource's text. */
  size: number;
  /** The resource's text, read when a client asks (the reviews dataset can be large). */
  read(): string;
}

export interface McpDeps {
  siteUrl: string;
  index: ReviewIndex;
  summary: { business: Business; aggregate_rating: AggregateRating };
  insights: InsightsDataset;
  resources: readonly McpResourceFile[];
}
