// Paths, content types and headers every host agrees on: the datasets, the three WebSub topics
// (the WebSub topics) and the hub. The build, the Node server, netlify.toml's test and the hub read these.

export const PATHS = {
  reviews: '/reviews.json',
  insights: '/insights.json',
  jsonFeed: '/api/feed.json',
  atomFeed: '/feed.xml',
  openapi: '/openapi.json',
  llms: '/llms.txt',
  search: '/api/reviews/search',
  since: '/api/reviews/since',
  mcp: '/mcp',
  hub: '/api/websub/hub',
  health: '/healthz',
  /** Page 1 of the paginated review listing; later pages are `listingPagePath(n)`. */
  listing: '/reviews/',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
  favicon: '/favicon.svg',
} as const;

export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
  text: 'text/plain; charset=utf-8',
} as const;

/** The files every build pre-renders from the content (see `renderPublishedFiles`). */
export const PUBLISHED_PATHS = [
  PATHS.reviews,
  PATHS.insights,
  PATHS.jsonFeed,
  PATHS.atomFeed,
  PATHS.openapi,
  PATHS.llms,
  PATHS.robots,
] as const;

/** The WebSub topics, each with the Content-Type its GET and its notifications use. */
export const TOPIC_PATHS = [PATHS.atomFeed, PATHS.jsonFeed, PATHS.reviews] as const;
export type TopicPath = (typeof TOPIC_PATHS)[number];

/** Datasets and feeds: cacheable for a minute, served stale for five while revalidating. */
export const DATASET_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

/** `{base_url}` without a trailing slash, so `${base}${path}` is always one slash. */
export function normalizeBaseUrl(siteUrl: string): string {
  return siteUrl.replace(/\/+$/, '');
}

export function absoluteUrl(siteUrl: string, path: string): string {
  return `${normalizeBaseUrl(siteUrl)}${path}`;
}

/** One Link header, hub first, then the topic itself, with quoted rels. */
export function topicLinkHeader(siteUrl: string, topicPath: TopicPath): string {
  return `<${absoluteUrl(siteUrl, PATHS.hub)}>; rel="hub", <${absoluteUrl(siteUrl, topicPath)}>; rel="self"`;
}

export function isTopicPath(path: string): path is TopicPath {
  return (TOPIC_PATHS as readonly string[]).includes(path);
}

export function reviewPagePath(id: string): string {
  return `/reviews/${id}/`;
}

const CONTENT_TYPE_BY_EXTENSION: Record<string, string> = {
  '.json': CONTENT_TYPES.json,
  '.xml': CONTENT_TYPES.xml,
  '.html': CONTENT_TYPES.html,
  '.txt': CONTENT_TYPES.text,
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
};

/** Exact Content-Type of a published file (URL path or path inside dist/client), from its extension. */
export function contentTypeForPath(filePath: string): string {
  // The Atom feed is the one XML file that is not plain application/xml (the sitemaps are).
  if (`/${filePath.replace(/^\/+/, '')}` === PATHS.atomFeed) return CONTENT_TYPES.atom;
  const dot = filePath.lastIndexOf('.');
  return (
    (dot >= 0 && CONTENT_TYPE_BY_EXTENSION[filePath.slice(dot).toLowerCase()]) ||
    'application/octet-stream'
  );
}

/** Fingerprinted build assets never change under one URL; everything else is revalidated. */
export function cacheControlForPath(urlPath: string): string {
  return urlPath.startsWith('/_astro/')
    ? 'public, max-age=31536000, immutable'
    : DATASET_CACHE_CONTROL;
}
