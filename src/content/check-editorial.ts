// The business's own insights text, checked: insights/faq.json (no file, no FAQ) and
// insights/summary.md (no file, no summary; a summary needs a title and a text).
import { z } from 'zod';
import {
  FaqSchema,
  InsightsEditorialSchema,
  type InsightsEditorial,
} from '../core/insights/editorial.ts';
import { invalidJsonProblem, problemsFromZod, shownPath, type ContentProblem } from './problems.ts';
import type { ContentSources, JsonSource, MarkdownSource } from './read-content.ts';

const SummaryFrontMatterSchema = z.object({ title: z.string().trim().min(1) }).strict();

interface Checked<T> {
  value: T;
  problems: ContentProblem[];
}

function checkFaq(file: string, source: JsonSource): Checked<InsightsEditorial['faq']> {
  if (source.kind === 'missing') return { value: [], problems: [] };
  if (source.kind === 'invalid') {
    return { value: [], problems: [invalidJsonProblem(file, source.message)] };
  }
  const result = FaqSchema.safeParse(source.value);
  if (result.success) return { value: result.data, problems: [] };
  return { value: [], problems: problemsFromZod(file, FaqSchema, result.error) };
}

function checkSummary(file: string, source: MarkdownSource): Checked<InsightsEditorial['summary']> {
  if (source.kind === 'unreadable') {
    if (source.missing) return { value: null, problems: [] };
    if (!source.yaml)
      return { value: null, problems: [{ file, field: '', message: source.message }] };
    const message = `cannot be read (${source.message})`;
    return { value: null, problems: [{ file, field: 'front matter', message }] };
  }
  const result = SummaryFrontMatterSchema.safeParse(source.data);
  if (!result.success) {
    return { value: null, problems: problemsFromZod(file, SummaryFrontMatterSchema, result.error) };
  }
  if (source.text.length === 0) {
    const message = 'the summary text (after the front matter) is missing';
    return { value: null, problems: [{ file, field: 'text', message }] };
  }
  return { value: { title: result.data.title, text: source.text }, problems: [] };
}

export function checkEditorial(
  sources: Pick<ContentSources, 'faqFile' | 'faq' | 'summaryFile' | 'summary'>,
): Checked<InsightsEditorial> {
  const faq = checkFaq(shownPath(sources.faqFile), sources.faq);
  const summary = checkSummary(shownPath(sources.summaryFile), sources.summary);
  return {
    value: InsightsEditorialSchema.parse({ faq: faq.value, summary: summary.value }),
    problems: [...faq.problems, ...summary.problems],
  };
}
