// `npm run validate-content`: the build's content checks alone, for editors and pre-commit hooks.
import { ConfigError, parseConfig } from '../src/config.ts';
import { ContentError, loadContent } from '../src/content/load-content.ts';
import { formatProblem } from '../src/content/problems.ts';
import { exitOnHelp } from './cli-args.ts';

const USAGE =
  'npm run validate-content  (checks CONTENT_DIR, default ./content, as the build does; exit 1 on a problem)';
exitOnHelp(USAGE);
const unknown = process.argv.slice(2);
if (unknown.length > 0) {
  console.error(
    `unexpected argument "${unknown[0]!}": validate-content takes none\nusage: ${USAGE}`,
  );
  process.exit(2);
}

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
