// `npm run validate-content`: the build's content checks alone, for editors and pre-commit hooks.
import { ConfigError, parseConfig } from '../src/config.ts';
import { ContentError, loadContent } from '../src/content/load-content.ts';
import { formatProblem } from '../src/content/problems.ts';

try {
  const config = parseConfig();
  const content = await loadContent({ contentDir: config.CONTENT_DIR, siteUrl: config.SITE_URL });
  for (const skipped of content.skipped) console.log(`skipped ${skipped.file}: ${skipped.reason}`);
  for (const warning of content.warnings) console.warn(`warning ${formatProblem(warning)}`);
  console.log(
    `content is valid: ${content.reviews.length} published reviews, ${content.skipped.length} skipped${content.warnings.length > 0 ? `, ${content.warnings.length} warned of` : ''}`,
  );
} catch (error) {
  if (!(error instanceof ContentError || error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
