// The aspect lexicon: the roofing-domain cues an owner keeps in `content/insights/lexicon.json`
// (schema here, loading in src/content/load-lexicon.ts) and their compiled, matchable form.
import { z } from 'zod';

/** The stance of a sentence or review on an aspect. */
export const POLARITIES = ['positive', 'negative', 'neutral'] as const;
export type Polarity = (typeof POLARITIES)[number];

/** The ten aspects of docs/aspects.md, in the order the insights dataset lists them. */
export const ASPECT_IDS = [
  'workmanship',
  'communication',
  'timeliness',
  'cleanup',
  'price_value',
  'professionalism',
  'insurance_claims',
  'warranty',
  'estimate_inspection',
  'customer_service',
] as const;

export type AspectId = (typeof ASPECT_IDS)[number];

/** How people read each aspect id. */
export const ASPECT_LABELS: Record<AspectId, string> = {
  workmanship: 'Workmanship',
  communication: 'Communication',
  timeliness: 'Timeliness',
  cleanup: 'Cleanup and property care',
  price_value: 'Price and value',
  professionalism: 'Professionalism',
  insurance_claims: 'Insurance claims',
  warranty: 'Warranty and after-care',
  estimate_inspection: 'Estimate and inspection',
  customer_service: 'Customer service',
};

export const AspectIdSchema = z.enum(ASPECT_IDS);

/** Token classes a phrase may use instead of a word. */
export const TOKEN_CLASSES = ['<money>', '<number>', '<time>'] as const;

/** Words between two terms that `~` allows. */
export const GAP_MAX_TOKENS = 4;

const WORD = /^[a-z0-9$%&'.-]+\*?$/;

function phraseProblem(phrase: string): string | null {
  const terms = phrase.split(' ');
  if (terms[0] === '~' || terms.at(-1) === '~') return 'must not start or end with ~';
  for (const term of terms) {
    if (term === '~') continue;
    for (const word of term.split('|')) {
      if (!WORD.test(word) && !(TOKEN_CLASSES as readonly string[]).includes(word))
        return `"${term}" is not a term: write lowercase words, word|word, prefix*, ~ or ${TOKEN_CLASSES.join(' ')}`;
    }
  }
  return null;
}

/** A cue: lowercase words separated by single spaces, matched against each token's lemma or text. */
export const PhraseSchema = z
  .string()
  .refine((phrase) => phrase === phrase.trim() && !/\s{2,}/.test(phrase) && phrase.length > 0, {
    message: 'must be words separated by single spaces',
  })
  .superRefine((phrase, ctx) => {
    const problem = phraseProblem(phrase);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const PhraseListSchema = z.array(PhraseSchema);

const SingleWordSchema = z.string().regex(/^[a-z']+$/, { message: 'must be one lowercase word' });

export const AspectCuesSchema = z
  .object({
    cues: PhraseListSchema.default([]).meta({
      description: 'name the aspect; the polarity comes from the opinion words around them',
    }),
    targets: PhraseListSchema.default([]).meta({
      description: 'nouns that name the aspect only when an opinion word is in the same clause',
    }),
    positive: PhraseListSchema.default([]).meta({
      description: 'name the aspect and evaluate it favourably (negation flips them)',
    }),
    negative: PhraseListSchema.default([]).meta({
      description: 'name the aspect and evaluate it unfavourably (negation flips them)',
    }),
    qualifiers: z
      .object({ positive: PhraseListSchema.default([]), negative: PhraseListSchema.default([]) })
      .strict()
      .default({ positive: [], negative: [] })
      .meta({
        description:
          'opinion words that evaluate this aspect only in a clause that names it ("high" for a price)',
      }),
    absorbs: z.array(AspectIdSchema).default([]).meta({
      description:
        'aspects that, in a sentence part that names this one, are about this one, polarity included (reply speed is communication, not timeliness)',
    }),
    overrides: z.array(AspectIdSchema).default([]).meta({
      description:
        'aspects dropped, polarity and all, from a sentence part that names this one (the defect behind a warranty visit)',
    }),
  })
  .strict();

export const LexiconSchema = z
  .object({
    $comment: z.union([z.string(), z.array(z.string())]).optional(),
    version: z.literal(1),
    negators: PhraseListSchema.meta({
      description: 'words that flip the polarity of what follows them in the clause',
    }),
    not_negations: PhraseListSchema.default([]).meta({
      description:
        'phrases whose negator does not negate ("can\'t believe how fast", "couldn\'t be happier")',
    }),
    contrast: z.array(SingleWordSchema).meta({
      description: 'words after which the writer lands on a stance (but, though, however)',
    }),
    clause_breaks: z.array(SingleWordSchema).meta({
      description: 'words that start a new clause (and, because, which)',
    }),
    polarity: z
      .object({ positive: PhraseListSchema, negative: PhraseListSchema })
      .strict()
      .meta({ description: 'general opinion words, for any aspect named in the same clause' }),
    aspects: z
      .object(
        Object.fromEntries(ASPECT_IDS.map((id) => [id, AspectCuesSchema])) as Record<
          AspectId,
          typeof AspectCuesSchema
        >,
      )
      .strict(),
    redirects: z
      .array(
        z
          .object({ from: AspectIdSchema, to: AspectIdSchema, when: PhraseListSchema.min(1) })
          .strict(),
      )
      .default([])
      .meta({
        description:
          'in a clause where one of `when` occurs, a mention of `from` is about `to` (rude office staff is customer service)',
      }),
  })
  .strict();

export type Lexicon = z.infer<typeof LexiconSchema>;
export type LexiconInput = z.input<typeof LexiconSchema>;

/** No cues at all: the analyzer finds no aspect (what a content folder without a lexicon gets). */
export const EMPTY_LEXICON: Lexicon = LexiconSchema.parse({
  version: 1,
  negators: [],
  not_negations: [],
  contrast: [],
  clause_breaks: [],
  polarity: { positive: [], negative: [] },
  aspects: Object.fromEntries(ASPECT_IDS.map((id) => [id, {}])),
});

// ---------------------------------------------------------------------------------------------
// Compiled form

export type TokenClass = (typeof TOKEN_CLASSES)[number];

export type Term =
  | { kind: 'gap' }
  | {
      kind: 'words';
      exact: ReadonlySet<string>;
      prefixes: readonly string[];
      classes: readonly TokenClass[];
    };

export type CueRole = 'cue' | 'target' | 'positive' | 'negative' | 'qualifier';

export interface CompiledPhrase {
  source: string;
  terms: readonly Term[];
  /** Number of non-gap terms: longer matches win over shorter overlapping ones. */
  length: number;
  aspect: AspectId | null;
  role: CueRole | 'polarity';
  /** +1 or −1 for polarity-bearing phrases, 0 otherwise. */
  sign: 1 | -1 | 0;
}

export interface CompiledLexicon {
  phrases: readonly CompiledPhrase[];
  negators: readonly CompiledPhrase[];
  notNegations: readonly CompiledPhrase[];
  contrast: ReadonlySet<string>;
  clauseBreaks: ReadonlySet<string>;
  redirects: readonly { from: AspectId; to: AspectId; when: readonly CompiledPhrase[] }[];
  absorbs: ReadonlyMap<AspectId, readonly AspectId[]>;
  overrides: ReadonlyMap<AspectId, readonly AspectId[]>;
  /** Every exact word the lexicon uses, for spelling correction. */
  vocabulary: ReadonlySet<string>;
}

function compileTerm(term: string): Term {
  if (term === '~') return { kind: 'gap' };
  const exact = new Set<string>();
  const prefixes: string[] = [];
  const classes: TokenClass[] = [];
  for (const word of term.split('|')) {
    if ((TOKEN_CLASSES as readonly string[]).includes(word)) classes.push(word as TokenClass);
    else if (word.endsWith('*')) prefixes.push(word.slice(0, -1));
    else exact.add(word);
  }
  return { kind: 'words', exact, prefixes, classes };
}

function compilePhrase(
  source: string,
  aspect: AspectId | null,
  role: CompiledPhrase['role'],
  sign: CompiledPhrase['sign'],
): CompiledPhrase {
  const terms = source.split(' ').map(compileTerm);
  return {
    source,
    terms,
    length: terms.filter((t) => t.kind !== 'gap').length,
    aspect,
    role,
    sign,
  };
}

/** Compiles a validated lexicon once; the analyzer reuses the result for every sentence. */
export function compileLexicon(lexicon: Lexicon): CompiledLexicon {
  const phrases: CompiledPhrase[] = [];
  for (const source of lexicon.polarity.positive)
    phrases.push(compilePhrase(source, null, 'polarity', 1));
  for (const source of lexicon.polarity.negative)
    phrases.push(compilePhrase(source, null, 'polarity', -1));
  const absorbs = new Map<AspectId, AspectId[]>();
  const overrides = new Map<AspectId, AspectId[]>();
  for (const aspect of ASPECT_IDS) {
    const cues = lexicon.aspects[aspect];
    for (const source of cues.cues) phrases.push(compilePhrase(source, aspect, 'cue', 0));
    for (const source of cues.targets) phrases.push(compilePhrase(source, aspect, 'target', 0));
    for (const source of cues.positive) phrases.push(compilePhrase(source, aspect, 'positive', 1));
    for (const source of cues.negative) phrases.push(compilePhrase(source, aspect, 'negative', -1));
    for (const source of cues.qualifiers.positive)
      phrases.push(compilePhrase(source, aspect, 'qualifier', 1));
    for (const source of cues.qualifiers.negative)
      phrases.push(compilePhrase(source, aspect, 'qualifier', -1));
    if (cues.absorbs.length > 0) absorbs.set(aspect, cues.absorbs);
    if (cues.overrides.length > 0) overrides.set(aspect, cues.overrides);
  }

  const vocabulary = new Set<string>();
  for (const phrase of phrases)
    for (const term of phrase.terms)
      if (term.kind === 'words') for (const word of term.exact) vocabulary.add(word);
  const negators = lexicon.negators.map((source) => compilePhrase(source, null, 'polarity', 0));
  for (const phrase of negators)
    for (const term of phrase.terms)
      if (term.kind === 'words') for (const word of term.exact) vocabulary.add(word);

  return {
    phrases,
    negators,
    notNegations: lexicon.not_negations.map((source) => compilePhrase(source, null, 'polarity', 0)),
    contrast: new Set(lexicon.contrast),
    clauseBreaks: new Set(lexicon.clause_breaks),
    redirects: lexicon.redirects.map((r) => ({
      from: r.from,
      to: r.to,
      when: r.when.map((source) => compilePhrase(source, null, 'polarity', 0)),
    })),
    absorbs,
    overrides,
    vocabulary,
  };
}
