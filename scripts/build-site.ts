// The build itself (run by scripts/build.ts in a process with a bounded heap): validate the
// content, pre-render datasets, feeds and pages with Astro into DIST_DIR/client, write the search
// data and the manifest the server serves them from.
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'astro';
import { distDirProblem, entriesOf, realPathOf } from '../src/build/dist-dir.ts';
import { createBuildSite, provideBuildSite } from '../src/build/site.ts';
import { writeManifest } from '../src/build/manifest.ts';
import { writeSearchFiles } from '../src/build/search-files.ts';
import { ConfigError, parseConfig } from '../src/config.ts';
import { ContentError, loadContent } from '../src/content/load-content.ts';
import { formatProblem } from '../src/content/problems.ts';
import { contentLastModified } from '../src/content/last-modified.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const config = parseConfig();
  const distDir = path.resolve(config.DIST_DIR);
  const problem = distDirProblem(
    await realPathOf(root),
    await realPathOf(distDir),
    await realPathOf(path.resolve(config.CONTENT_DIR)),
    await entriesOf(distDir),
  );
  if (problem !== null) throw new ConfigError(`DIST_DIR: ${problem}`);
  const started = performance.now();
  const content = await loadContent({ contentDir: config.CONTENT_DIR, siteUrl: config.SITE_URL });
  for (const skipped of content.skipped) console.log(`skipped ${skipped.file}: ${skipped.reason}`);
  for (const warning of content.warnings) console.warn(`warning ${formatProblem(warning)}`);
  const site = await createBuildSite(config.SITE_URL, content);
  provideBuildSite(site);

  // Build beside DIST_DIR and swap it in at the end, so a failed build leaves the last good site.
  const staging = `${distDir}.staging`;
  await rm(staging, { recursive: true, force: true });
  await build({ root, logLevel: 'warn', outDir: staging });
  await writeSearchFiles(staging, site.search);
  const manifest = await writeManifest(staging, await contentLastModified(config.CONTENT_DIR));
  await rm(distDir, { recursive: true, force: true });
  await rename(staging, distDir);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `built ${content.reviews.length} ${content.reviews.length === 1 ? 'review' : 'reviews'} (${content.skipped.length} skipped), ${Object.keys(manifest.files).length} files into ${distDir} in ${seconds}s`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ContentError || error instanceof ConfigError) {
    console.error(`Build stopped. ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
