// The parts of a sitemap index (/sitemap-1.xml, …), which exist only past the per-file limits.
import type { GetStaticPaths } from 'astro';
import { sitemapPartPath } from '../core/sitemap.ts';
import { site, textFile } from '../build/page-data.ts';

export const getStaticPaths = (async () => {
  const { sitemaps } = await site();
  const paths = [];
  for (let part = 1; sitemaps.has(sitemapPartPath(part)); part += 1)
    paths.push({ params: { part: String(part) } });
  return paths;
}) satisfies GetStaticPaths;

export async function GET({ params }: { params: { part: string } }): Promise<Response> {
  return textFile((await site()).sitemaps.get(sitemapPartPath(Number(params.part)))!);
}
