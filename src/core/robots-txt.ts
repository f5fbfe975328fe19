// `/robots.txt` (RFC 9309): every page may be crawled, and the sitemap is announced by its absolute
// URL. The search and since endpoints are left out: they are queries over the same reviews, with
// an unbounded number of URLs, not pages. So are the MCP endpoint and the hub, which answer POST
// alone: a crawler's GET is refused.
import { PATHS, absoluteUrl } from './site.ts';

export function renderRobotsTxt(siteUrl: string): string {
  return `User-agent: *
Allow: /
Disallow: ${PATHS.search}
Disallow: ${PATHS.since}/
Disallow: ${PATHS.mcp}
Disallow: ${PATHS.hub}

Sitemap: ${absoluteUrl(siteUrl, PATHS.sitemap)}
`;
}
