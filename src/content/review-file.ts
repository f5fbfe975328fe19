// Writing a review file (`content/reviews/<id>.md`) the way a person would: YAML front matter
// with quoted strings (so dates stay strings and nothing is re-typed), fields in a fixed order,
// then the review text. Used by import-reviews and new-review; the build reads it back unchanged.
import yaml from 'js-yaml';
import type { ReviewFrontMatter } from '../core/review.ts';
import { foldText } from '../core/text.ts';

const ORDER = [
  'rating',
  'date',
  'title',
  'author',
  'location',
  'source',
  'source_id',
  'source_url',
  'verification',
  'verified_on',
  'technicians',
  'services',
  'service_area',
  'language',
  'reply',
  'updated',
  'private',
] as const;

export type ReviewFileFields = Partial<ReviewFrontMatter> & Record<string, unknown>;

function scalar(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);
}

/** The markdown file: front matter, a blank-line-free separator, the text and a final newline. */
export function renderReviewFile(fields: ReviewFileFields, text: string): string {
  const lines: string[] = ['---'];
  const keys = [
    ...ORDER.filter((key) => key in fields),
    ...Object.keys(fields).filter((key) => !(ORDER as readonly string[]).includes(key)),
  ];
  for (const key of keys) {
    const value = fields[key];
    if (value === undefined) continue;
    if (key === 'reply' && value && typeof value === 'object') {
      const reply = value as { date: string; text: string };
      lines.push('reply:', `  date: ${scalar(reply.date)}`, `  text: ${scalar(reply.text)}`);
    } else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      lines.push(`${key}: [${value.map((item) => scalar(item)).join(', ')}]`);
    } else if (value !== null && typeof value === 'object') {
      const dumped = yaml.dump({ [key]: value }, { lineWidth: -1, noRefs: true, sortKeys: true });
      lines.push(dumped.trimEnd());
    } else {
      lines.push(`${key}: ${scalar(value)}`);
    }
  }
  lines.push('---');
  return `${lines.join('\n')}\n${text.trim()}\n`;
}

/** kebab-case of a name, ASCII letters and digits only ("Núñez O'Brien" → "nunez-obrien"). */
export function slugify(value: string, fallback = 'review'): string {
  const slug = foldText(value)
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return slug || fallback;
}

/** `<date>-<slug>`, with -2, -3, … until it is free in `taken` (which it is then added to). */
export function freeReviewId(date: string, name: string, taken: Set<string>): string {
  const base = `${date}-${slugify(name)}`;
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  taken.add(id);
  return id;
}
