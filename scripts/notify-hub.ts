// `npm run notify-hub [-- --hub <url>]`: the post-deploy step. Pings the hub for the three topics;
// the hub compares each with what it last distributed and notifies subscribers of what changed.
// Prints the hub's report (reviews added, changed, removed; subscribers notified).
import { ConfigError, parseConfig } from '../src/config.ts';
import { PATHS } from '../src/core/site.ts';
import { topicUrls } from '../src/hub/requests.ts';

try {
  const config = parseConfig();
  const flag = process.argv.indexOf('--hub');
  const hubUrl =
    flag >= 0 && process.argv[flag + 1]
      ? process.argv[flag + 1]!
      : `${config.SITE_URL}${PATHS.hub}`;
  const form = new URLSearchParams([
    ['hub.mode', 'publish'],
    ...topicUrls(config.SITE_URL).map((topic) => ['hub.topic', topic]),
  ]);
  const response = await fetch(hubUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    signal: AbortSignal.timeout(60_000),
  });
  const report = (await response.text()).trim();
  if (response.status !== 202) {
    console.error(`the hub at ${hubUrl} answered ${response.status}: ${report}`);
    process.exit(1);
  }
  console.log(`published to ${hubUrl}\n${report}`);
} catch (error) {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(`could not reach the hub: ${(error as Error).message}`);
  process.exit(1);
}
