// What the MCP tools read: the published site, as the Node server (or a serverless host) holds it.
import type { InsightsDataset } from '../core/insights/dataset.ts';
import type { ReviewsDataset } from '../core/review.ts';
import type { ReviewIndex } from '../core/search.ts';

export interface McpResourceFile {
  name: string;
  title: string;
  description: string;
  uri: string;
  mimeType: string;
  text: string;
}

export interface McpDeps {
  siteUrl: string;
  index: ReviewIndex;
  dataset: ReviewsDataset;
  insights: InsightsDataset;
  resources: readonly McpResourceFile[];
}
