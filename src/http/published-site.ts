// The built site as the server holds it: the manifest, the datasets and feeds in memory, and the
// search index over the published reviews. Loaded once at start-up from DIST_DIR.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readManifest, type Manifest } from '../build/manifest.ts';
import type { ReviewsDataset } from '../core/review.ts';
import { openReviewIndex, type ReviewIndex } from '../core/review-index.ts';
import type { SearchColumns } from '../core/search-data.ts';
import { readSearchFiles } from '../build/search-files.ts';
import { PATHS, PUBLISHED_PATHS, absoluteUrl } from '../core/site.ts';
import type { InsightsDataset } from '../core/insights/dataset-schema.ts';
import type { McpDeps } from '../mcp/deps.ts';

export interface StaticFile {
  file: string;
  etag: string;
  size: number;
  type: string;
  /** Held in memory for the datasets and feeds; other files are read on demand. */
  bytes?: Buffer;
}

export interface PublishedSite {
  distDir: string;
  clientDir: string;
  lastModified: Date;
  files: ReadonlyMap<string, StaticFile>;
  index: ReviewIndex;
  summary: Pick<SearchColumns, 'business' | 'aggregate_rating'>;
  insights: InsightsDataset;
  /** Parses the whole reviews dataset (tests; the server itself never needs to). */
  readDataset(): ReviewsDataset;
}

/**
 * The site in `distDir`. Its Last-Modified is the content's, but never later than `now` (the
 * start-up): a file time or commit from a clock ahead of this one would otherwise be sent as a
 * modification in the future, which HTTP forbids (RFC 9110 §8.8.2.1) and which would make caches
 * and `If-Modified-Since` misjudge freshness.
 */
export async function loadPublishedSite(distDir: string, now = new Date()): Promise<PublishedSite> {
  const manifest: Manifest = await readManifest(distDir);
  const clientDir = path.join(distDir, 'client');
  const files = new Map<string, StaticFile>();
  for (const [urlPath, entry] of Object.entries(manifest.files)) files.set(urlPath, { ...entry });
  for (const urlPath of PUBLISHED_PATHS) {
    const entry = files.get(urlPath);
    if (!entry)
      throw new Error(`${urlPath} is missing from ${distDir}: rebuild with \`npm run build\`.`);
    entry.bytes = await readFile(path.join(clientDir, entry.file));
  }
  const readJson = (urlPath: string): unknown =>
    JSON.parse(files.get(urlPath)!.bytes!.toString('utf8'));
  const { columns, folded, substrings } = await readSearchFiles(distDir);
  const reviewsJson = files.get(PATHS.reviews)!.bytes!;
  return {
    distDir,
    clientDir,
    lastModified: new Date(
      Math.min(Date.parse(manifest.last_modified), Math.floor(now.getTime() / 1000) * 1000),
    ),
    files,
    index: openReviewIndex({ reviewsJson, columns, folded, substrings }),
    summary: { business: columns.business, aggregate_rating: columns.aggregate_rating },
    insights: readJson(PATHS.insights) as InsightsDataset,
    readDataset: () => readJson(PATHS.reviews) as ReviewsDataset,
  };
}

const MCP_RESOURCES = [
  {
    path: PATHS.reviews,
    name: 'reviews',
    title: 'Reviews dataset',
    description: 'Business, aggregate rating and every verified review, newest first.',
  },
  {
    path: PATHS.insights,
    name: 'insights',
    title: 'Insights dataset',
    description: 'Aspect sentiment, technicians, services, service areas, topics, FAQ and summary.',
  },
  {
    path: PATHS.jsonFeed,
    name: 'feed',
    title: 'JSON Feed',
    description: 'JSON Feed 1.1 of the 50 newest reviews.',
  },
] as const;

/** The MCP tools' view of the published site: the same index and bytes the HTTP endpoints serve. */
export function mcpDepsFor(site: PublishedSite, siteUrl: string): McpDeps {
  return {
    siteUrl,
    index: site.index,
    summary: site.summary,
    insights: site.insights,
    resources: MCP_RESOURCES.map(({ path: urlPath, ...meta }) => ({
      ...meta,
      uri: absoluteUrl(siteUrl, urlPath),
      mimeType: 'application/json',
      size: site.files.get(urlPath)!.bytes!.length,
      read: () => site.files.get(urlPath)!.bytes!.toString('utf8'),
    })),
  };
}
