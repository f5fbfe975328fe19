// The loaded content and rendered files that the Astro pages read at build time. `scripts/build.ts`
// validates the content first and hands it over here, so a 100k-review build parses it once; a
// plain `astro build` (or `astro dev`) loads it on first use instead.
import { loadContent, type SiteContent } from '../content/load-content.ts';
import { buildInsightsInParallel } from '../core/insights/dataset.ts';
import { renderPublishedFiles, type PublishedFiles } from '../core/publish.ts';
import { buildSearchData, type SearchData } from '../core/search-data.ts';
import { renderSitemaps } from '../core/sitemap.ts';

export interface BuildSite {
  siteUrl: string;
  content: SiteContent;
  files: PublishedFiles;
  /** What the server's search index opens (written to DIST_DIR/search by the build script). */
  search: SearchData;
  /** The sitemap files by URL path (/sitemap.xml, and its parts past the per-file limits). */
  sitemaps: ReadonlyMap<string, string>;
}

const HANDOFF = Symbol.for('reviews-service.build-site');
type Handoff = { [HANDOFF]?: Promise<BuildSite> };

/**
 * Everything the pages read. The insights' reading of the reviews runs on up to `threads` threads
 * (default: one per core, at most four); the files are the same bytes whatever the number.
 */
export async function createBuildSite(
  siteUrl: string,
  content: SiteContent,
  options: { threads?: number } = {},
): Promise<BuildSite> {
  const { business, reviews, editorial, lexicon } = content;
  const insights = await buildInsightsInParallel(business, reviews, editorial, lexicon, options);
  const search = buildSearchData(business, reviews);
  return {
    siteUrl,
    content,
    search,
    sitemaps: renderSitemaps({ siteUrl, reviews }),
    files: renderPublishedFiles({
      siteUrl,
      business,
      reviews,
      editorial,
      lexicon,
      reviewsJson: search.reviewsJson,
      insightsJson: JSON.stringify(insights),
    }),
  };
}

/** Called by the build script before `astro build`, so the pages reuse the validated content. */
export function provideBuildSite(site: BuildSite): void {
  (globalThis as Handoff)[HANDOFF] = Promise.resolve(site);
}

export function getBuildSite(options: { siteUrl: string; contentDir: string }): Promise<BuildSite> {
  const holder = globalThis as Handoff;
  // One thread: inside the page bundle there is no worker module to start.
  holder[HANDOFF] ??= loadContent({
    contentDir: options.contentDir,
    siteUrl: options.siteUrl,
  }).then((content) => createBuildSite(options.siteUrl, content, { threads: 1 }));
  return holder[HANDOFF];
}
