import { expect, test } from 'vitest';
import { loadContent } from '../../content/load-content.ts';
import { buildInsights } from '../../core/insights/dataset.ts';
import { toolHandler } from '../../../test/support/tool-handler.ts';
import { registerGetInsights, summarizeInsights } from './get-insights.ts';

const content = await loadContent({
  contentDir: new URL('../../../test/fixtures/content', import.meta.url).pathname,
  siteUrl: 'https://reviews.test',
});
const insights = buildInsights(
  content.business,
  content.reviews,
  content.editorial,
  content.lexicon,
);

test("a get_insights answer's text says its figures, for clients that show only text", () => {
  const text = summarizeInsights(insights);
  expect(
    text.startsWith(`Insights of ${insights.review_count} reviews of ${content.business.name}.`),
  ).toBe(true);
  const spoken = Object.entries(insights.aspects).filter(([, aspect]) => aspect.review_count > 0);
  expect(spoken.length).toBeGreaterThan(0);
  for (const [id, aspect] of spoken)
    expect(text).toContain(`${id} ${aspect.review_count} (${aspect.score})`);
  for (const item of [...insights.summary.highlights, ...insights.summary.concerns])
    expect(text).toContain(item.text);
  expect(insights.topics.length).toBeGreaterThan(0);
  for (const topic of insights.topics)
    expect(text).toContain(`${topic.label} ${topic.review_count} (${topic.average_rating})`);
  const named = insights.entities.technicians.filter((t) => t.mention_count > 0);
  expect(named.length).toBeGreaterThan(0);
  for (const technician of named)
    expect(text).toContain(
      `${technician.name} ${technician.mention_count} (${technician.average_rating})`,
    );
  expect(text).toContain(`FAQ: ${insights.faq.length} question`);
});

test('the text of one section speaks of that section only, and long lists are counted', () => {
  const { schema_version, business_name, review_count } = insights;
  const topics = Array.from({ length: 15 }, (_, i) => ({
    ...insights.topics[0]!,
    label: `topic ${i}`,
  }));
  const text = summarizeInsights({ schema_version, business_name, review_count, topics });
  expect(text).toContain('topic 11 ');
  expect(text).not.toContain('topic 12 ');
  expect(text).toContain('and 3 more');
  expect(text).not.toMatch(/Aspects|Technicians|FAQ|Highlights/);
});

test('get_insights gives its answer that text (shown when the JSON is too large to repeat)', async () => {
  const handler = toolHandler(registerGetInsights, { insights });
  const whole = await handler();
  expect(whole.content).toEqual([{ type: 'text', text: summarizeInsights(insights) }]);
  const faq = await handler({ section: 'faq' });
  expect((faq.content[0] as { text: string }).text).toMatch(/FAQ: \d+ question/);
});
