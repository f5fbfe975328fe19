// Aspect-based sentiment for review text: sentences from wink-nlp, aspects and polarity from the
// owner's lexicon. Used by the insights build, `npm run aspects` and `npm run eval:aspects`.
// Pure and deterministic: the same lexicon, text and rating always give the same answer.
import { editDistance } from '../edit-distance.ts';
import {
  LONG_CLAUSE_WORDS,
  passesGate,
  reportedBy,
  scoreSentence,
  type AspectModel,
} from './model/aspect-model.ts';
import { tokenizeForModel } from './model/features.ts';
import {
  ASPECT_IDS,
  GAP_MAX_TOKENS,
  compileLexicon,
  POLARITIES,
  type Polarity,
  type AspectId,
  type CompiledLexicon,
  type CompiledPhrase,
  type Lexicon,
  type Term,
  type TokenClass,
} from './lexicon.ts';
import { splitSentences, tokenizeSentence, type TokenizedSentence } from './sentences.ts';

export interface AspectOpinion {
  aspect: AspectId;
  polarity: Polarity;
}

export interface AnalyzedSentence {
  /** 0-based position of the sentence in the text. */
  index: number;
  text: string;
  /** At most one opinion per aspect, in ASPECT_IDS order. */
  aspects: AspectOpinion[];
}

export interface AnalyzedReview {
  sentences: AnalyzedSentence[];
  /** One opinion per aspect the review speaks of (see `combineSentenceOpinions`). */
  aspects: AspectOpinion[];
}

/**
 * A review's stance on each aspect from its sentences' (docs/aspects.md, scoring): the
 * majority of its sentences, the star rating breaking a tie (4–5 positive, 1–2 negative, 3
 * neutral); without a rating, the later of the tied sentences.
 */
export function combineSentenceOpinions(
  sentences: readonly (readonly AspectOpinion[])[],
  rating?: number,
): AspectOpinion[] {
  const opinions: AspectOpinion[] = [];
  for (const aspect of ASPECT_IDS) {
    const counts: Record<Polarity, number> = { positive: 0, negative: 0, neutral: 0 };
    let last: Polarity | undefined;
    const order: Polarity[] = [];
    for (const sentence of sentences) {
      const opinion = sentence.find((o) => o.aspect === aspect);
      if (!opinion) continue;
      counts[opinion.polarity] += 1;
      order.push(opinion.polarity);
      last = opinion.polarity;
    }
    if (last === undefined) continue;
    const best = Math.max(...POLARITIES.map((p) => counts[p]));
    const tied = POLARITIES.filter((p) => counts[p] === best);
    let polarity: Polarity;
    if (tied.length === 1) polarity = tied[0]!;
    else if (rating !== undefined) {
      const byRating: Polarity = rating >= 4 ? 'positive' : rating <= 2 ? 'negative' : 'neutral';
      polarity = tied.includes(byRating) ? byRating : order.findLast((p) => tied.includes(p))!;
    } else polarity = order.findLast((p) => tied.includes(p))!;
    opinions.push({ aspect, polarity });
  }
  return opinions;
}

export interface AspectAnalyzer {
  /** `analyzeText` plus the review-level opinions. */
  analyzeReview(text: string, rating?: number): AnalyzedReview;
  /** Splits `text` into sentences (paragraphs first) and analyses each. */
  analyzeText(text: string, rating?: number): AnalyzedSentence[];
  /** Analyses `text` as one sentence, as the labelled sets are written. */
  analyzeSentence(text: string, rating?: number): AspectOpinion[];
  /** Analyses a sentence already split by `splitSentences`. */
  analyzeTokenized(sentence: TokenizedSentence, rating?: number): AspectOpinion[];
  /** Which phrases matched and how they counted: for owners tuning the lexicon. */
  explainSentence(text: string, rating?: number): SentenceTrace;
}

// Weight of a cue that names its aspect and its polarity, against a general opinion word.
const OWNED_WEIGHT = 2;

interface Token {
  lower: string;
  /** lowercase text, lemma and spelling correction, deduplicated */
  forms: readonly string[];
  pos: string;
  type: string;
  clause: number;
  segment: number;
  /** positions of the negators earlier in the same clause (their parity decides) */
  negators: number[];
}

interface Match {
  phrase: CompiledPhrase;
  start: number;
  /** exclusive */
  end: number;
  /** positions of the tokens the phrase's words matched (not its gaps) */
  literals: readonly number[];
}

const BREAK_PUNCTUATION = new Set([
  ',',
  ';',
  ':',
  '.',
  '!',
  '?',
  '(',
  ')',
  '-',
  '—',
  '–',
  '...',
  '…',
]);

function isMoney(tokens: readonly Token[], i: number): boolean {
  const token = tokens[i]!;
  if (token.type === 'currency' || /^\$\d/.test(token.lower)) return true;
  if (/^\d+(?:\.\d+)?k$/.test(token.lower)) return true;
  const previous = tokens[i - 1];
  return (
    previous !== undefined &&
    (previous.type === 'number' || previous.pos === 'NUM') &&
    ['k', 'grand', 'dollar', 'dollars', 'buck', 'bucks'].includes(token.lower)
  );
}

function classAccepts(name: TokenClass, tokens: readonly Token[], i: number): boolean {
  const token = tokens[i]!;
  if (name === '<money>') return isMoney(tokens, i);
  if (name === '<number>') return token.type === 'number' || token.pos === 'NUM';
  return (
    token.type === 'time' ||
    /^\d{1,2}(?::\d\d)?(?:am|pm)$/.test(token.lower) ||
    (/^\d{1,2}(?::\d\d)?$/.test(token.lower) &&
      ['am', 'pm', 'a.m.', 'p.m.', "o'clock"].includes(tokens[i + 1]?.lower ?? ''))
  );
}

function termAccepts(term: Term, tokens: readonly Token[], i: number): boolean {
  if (term.kind !== 'words') return false;
  const token = tokens[i]!;
  for (const form of token.forms) {
    if (term.exact.has(form)) return true;
    for (const prefix of term.prefixes) if (form.startsWith(prefix)) return true;
  }
  return term.classes.some((name) => classAccepts(name, tokens, i));
}

/** Positions of the tokens the phrase's words matched at `start` (gaps excluded), or null. */
function matchAt(phrase: CompiledPhrase, tokens: readonly Token[], start: number): number[] | null {
  const literals: number[] = [];
  const step = (termIndex: number, i: number): boolean => {
    if (termIndex === phrase.terms.length) return true;
    const term = phrase.terms[termIndex]!;
    if (term.kind === 'gap') {
      // A gap never crosses into another clause.
      for (let skip = 0; skip <= GAP_MAX_TOKENS; skip++) {
        const at = i + skip;
        if (at >= tokens.length || tokens[at]!.clause !== tokens[start]!.clause) break;
        if (step(termIndex + 1, at)) return true;
      }
      return false;
    }
    if (i >= tokens.length || !termAccepts(term, tokens, i)) return false;
    literals.push(i);
    if (step(termIndex + 1, i + 1)) return true;
    literals.pop();
    return false;
  };
  return step(0, start) ? literals : null;
}

function findMatches(
  phrases: (token: Token) => Iterable<CompiledPhrase>,
  tokens: readonly Token[],
): Match[] {
  const matches: Match[] = [];
  // Two phrases of one kind over the same words ("cheap" and "cheapest" both match "cheapest")
  // count once.
  const seen = new Set<string>();
  for (let start = 0; start < tokens.length; start++) {
    for (const phrase of phrases(tokens[start]!)) {
      const literals = matchAt(phrase, tokens, start);
      if (!literals) continue;
      const end = literals.at(-1)! + 1;
      const key = `${start} ${end} ${phrase.aspect} ${phrase.role} ${phrase.sign}`;
      if (seen.has(key)) continue;
      seen.add(key);
      matches.push({ phrase, start, end, literals });
    }
  }
  return matches;
}

/** The lexicon word a misspelt word most likely means: same first letter, 1 edit (2 if long). */
function createSpeller(vocabulary: ReadonlySet<string>): (word: string) => string | null {
  const byInitial = new Map<string, string[]>();
  for (const word of [...vocabulary].sort()) {
    if (word.length < 5 || !/^[a-z]+$/.test(word)) continue;
    const list = byInitial.get(word[0]!) ?? [];
    list.push(word);
    byInitial.set(word[0]!, list);
  }
  const cache = new Map<string, string | null>();
  return (word) => {
    // Short words are too often other real words one letter away ("dental", "denial").
    if (word.length < 7 || vocabulary.has(word) || !/^[a-z]+$/.test(word)) return null;
    const cached = cache.get(word);
    if (cached !== undefined) return cached;
    // Two slips only in long words, and only as swaps or replacements ("proffesional").
    const max = word.length >= 9 ? 2 : 1;
    let best: string | null = null;
    let bestDistance = max + 1;
    for (const candidate of byInitial.get(word[0]!) ?? []) {
      // "experience" is not a slip for "experienced", nor "honestly" for "honesty": words that
      // differ only in their last letters are inflections or derivations, not typos.
      let common = 0;
      while (common < word.length && word[common] === candidate[common]) common += 1;
      if (common >= Math.min(word.length, candidate.length) - 2) continue;
      const allowed = candidate.length === word.length ? max : 1;
      const distance = editDistance(word, candidate, allowed);
      if (distance <= allowed && distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    cache.set(word, best);
    return best;
  };
}

interface Mention {
  score: number;
  /** named by a cue (not only by a target) */
  strong: boolean;
}

type Mentions = Map<AspectId, Mention>;

function addMention(mentions: Mentions, aspect: AspectId, score: number, strong: boolean): void {
  const mention = mentions.get(aspect) ?? { score: 0, strong: false };
  mention.score += score;
  mention.strong ||= strong;
  mentions.set(aspect, mention);
}

function within(inner: Match, outer: Match): boolean {
  return outer.start <= inner.start && outer.end >= inner.end;
}

function strictlyWithin(inner: Match, outer: Match): boolean {
  return within(inner, outer) && outer.end - outer.start > inner.end - inner.start;
}

/** One matched lexicon phrase, as `explainSentence` reports it. */
export interface MatchTrace {
  phrase: string;
  role: CompiledPhrase['role'];
  aspect: AspectId | null;
  text: string;
  negated: boolean;
  /** Why it did not count, if it did not. */
  dropped?: string;
}

export interface SentenceTrace {
  /** The sentence's clauses; [n] is the contrast segment, ¬ marks a negated word. */
  clauses: string[];
  matches: MatchTrace[];
  aspects: AspectOpinion[];
  /** What each step of the pipeline decided (with the learned model). */
  steps?: StepTrace[];
}

/** One step of the analyzer's pipeline and what it decided for a sentence. */
export interface StepTrace {
  step: PipelineStep;
  reason: string;
  result: string;
}

const NOUN_TAGS = new Set(['NOUN', 'PROPN']);

function applyOverrides(
  mentions: Mentions,
  overrides: ReadonlyMap<AspectId, readonly AspectId[]>,
): void {
  for (const [aspect, dropped] of overrides) {
    if (!mentions.has(aspect)) continue;
    for (const other of dropped) mentions.delete(other);
  }
}

function applyAbsorbs(
  mentions: Mentions,
  absorbs: ReadonlyMap<AspectId, readonly AspectId[]>,
): void {
  for (const [aspect, absorbed] of absorbs) {
    if (!mentions.has(aspect)) continue;
    for (const other of absorbed) {
      const mention = mentions.get(other);
      if (!mention) continue;
      mentions.delete(other);
      addMention(mentions, aspect, mention.score, mention.strong);
    }
  }
}

/** The lexicon matcher alone (the pipeline's owner-override step). Compile once, call for every review. */
export function createLexiconAnalyzer(lexicon: Lexicon): AspectAnalyzer {
  const compiled: CompiledLexicon = compileLexicon(lexicon);
  const spell = createSpeller(compiled.vocabulary);
  const negatorIndex = indexPhrases(compiled.negators);
  const notNegationIndex = indexPhrases(compiled.notNegations);
  const redirectIndex = indexPhrases(compiled.redirects.flatMap((r) => r.when));
  const lexiconIndex = indexPhrases(compiled.phrases);

  function tokensOf(
    words: readonly string[],
    lemmas: readonly string[],
    pos: readonly string[],
    types: readonly string[],
    spaces: readonly string[],
  ): Token[] {
    const tokens: Token[] = [];
    let clause = 0;
    let segment = 0;
    for (let i = 0; i < words.length; i++) {
      const lower = words[i]!.toLowerCase();
      // wink splits "no-show" into no - show: the lexicon writes it "no show".
      if (lower === '-' && spaces[i] === '' && spaces[i + 1] === '' && i > 0) continue;
      const isContrast = compiled.contrast.has(lower);
      const isBreak =
        isContrast || compiled.clauseBreaks.has(lower) || BREAK_PUNCTUATION.has(lower);
      if (isBreak && i > 0 && tokens.at(-1)!.clause === clause) clause += 1;
      if (isContrast) segment += 1;
      const forms = [lower];
      const lemma = lemmas[i]?.toLowerCase();
      if (lemma && lemma !== 'undefined' && lemma !== lower) forms.push(lemma);
      const corrected = spell(lower);
      if (corrected && !forms.includes(corrected)) forms.push(corrected);
      tokens.push({
        lower,
        forms,
        pos: pos[i] ?? 'X',
        type: types[i] ?? 'word',
        clause,
        segment,
        negators: [],
      });
    }
    // A negator flips what follows it up to the end of its clause. (wink's own negation flag runs
    // to the next punctuation, across "and" and "but", which is too far for aspects.)
    const exceptions = findMatches(notNegationIndex, tokens);
    for (const match of findMatches(negatorIndex, tokens)) {
      if (exceptions.some((e) => within(match, e))) continue;
      for (let i = match.end; i < tokens.length; i++) {
        if (tokens[i]!.clause !== tokens[match.start]!.clause) break;
        if (!tokens[i]!.negators.includes(match.start)) tokens[i]!.negators.push(match.start);
      }
    }
    return tokens;
  }

  function analyzeTokens(
    tokens: Token[],
    rating: number | undefined,
    trace?: MatchTrace[],
  ): AspectOpinion[] {
    if (tokens.length === 0) return [];
    const all = findMatches(lexiconIndex, tokens);
    // A phrase is negated when its last word is, by negators that are not words of the phrase
    // itself ("not a single nail" is already the positive phrase).
    const negated = (m: Match) =>
      tokens[m.end - 1]!.negators.filter((at) => !m.literals.includes(at)).length % 2 === 1;
    const flip = (m: Match) => (negated(m) ? -1 : 1);
    const clauseOf = (m: Match) => tokens[m.start]!.clause;
    const drop = new Map<Match, string>();

    // A longer aspect phrase wins over a shorter one inside it ("city inspection" is
    // workmanship, not estimate_inspection). A target names its aspect only as a noun.
    const aspectMatches = all.filter((m) => m.phrase.aspect !== null);
    // Within one aspect, a neutral cue does not silence a polar phrase inside it.
    const silences = (outer: Match, inner: Match) =>
      strictlyWithin(inner, outer) &&
      (outer.phrase.aspect !== inner.phrase.aspect ||
        outer.phrase.sign !== 0 ||
        inner.phrase.sign === 0);
    for (const m of aspectMatches) {
      const outer = aspectMatches.find((o) => o !== m && silences(o, m));
      if (outer) drop.set(m, `inside "${outer.phrase.source}"`);
      else if (m.phrase.role === 'target' && !NOUN_TAGS.has(tokens[m.end - 1]!.pos))
        drop.set(m, 'not a noun here');
    }
    const kept = aspectMatches.filter((m) => !drop.has(m));

    const clauseCount = tokens.at(-1)!.clause + 1;
    const clauses: Mentions[] = Array.from({ length: clauseCount }, () => new Map());
    const opinion = new Array<number>(clauseCount).fill(0);
    const opinionated = new Array<boolean>(clauseCount).fill(false);
    const consumedOpinion = new Array<number>(clauseCount).fill(0);

    for (const m of all) {
      if (m.phrase.aspect !== null) continue;
      const clause = clauseOf(m);
      opinionated[clause] = true;
      // A target takes every opinion word of its clause, those inside other aspects' cues too
      // ("the owner refused to fix the leak": refused is the owner's as well as the warranty's).
      consumedOpinion[clause]! += m.phrase.sign * flip(m);
      const owner = kept.find((o) => within(m, o) && o.phrase.role !== 'target');
      if (owner) {
        addMention(clauses[clause]!, owner.phrase.aspect!, m.phrase.sign * flip(m), true);
        drop.set(m, `counts for ${owner.phrase.aspect} inside "${owner.phrase.source}"`);
      } else {
        opinion[clause]! += m.phrase.sign * flip(m);
      }
    }
    for (const m of kept) {
      const role = m.phrase.role;
      if (role === 'positive' || role === 'negative')
        addMention(
          clauses[clauseOf(m)]!,
          m.phrase.aspect!,
          OWNED_WEIGHT * m.phrase.sign * flip(m),
          true,
        );
      // A cue under negation is the thing missing: "zero communication", "no drop cloths".
      else if (role === 'cue')
        addMention(clauses[clauseOf(m)]!, m.phrase.aspect!, negated(m) ? -1 : 0, true);
    }
    for (const m of kept) {
      if (m.phrase.role !== 'target') continue;
      const clause = clauseOf(m);
      if (opinionated[clause]) {
        const mentions = clauses[clause]!;
        // The clause's unowned opinion is added to every mention below; add the rest here.
        const fromCues = consumedOpinion[clause]! - opinion[clause]!;
        if (!mentions.has(m.phrase.aspect!))
          addMention(mentions, m.phrase.aspect!, fromCues, false);
      } else drop.set(m, 'no opinion word in its clause');
    }
    for (const m of kept) {
      if (m.phrase.role !== 'qualifier') continue;
      const mention = clauses[clauseOf(m)]!.get(m.phrase.aspect!);
      if (mention) mention.score += OWNED_WEIGHT * m.phrase.sign * flip(m);
      else drop.set(m, `${m.phrase.aspect} not named in its clause`);
    }

    const redirectMatches = findMatches(redirectIndex, tokens);
    clauses.forEach((mentions, clause) => {
      for (const mention of mentions.values()) mention.score += opinion[clause]!;
      for (const rule of compiled.redirects) {
        const from = mentions.get(rule.from);
        if (!from) continue;
        if (!redirectMatches.some((m) => rule.when.includes(m.phrase) && clauseOf(m) === clause))
          continue;
        mentions.delete(rule.from);
        addMention(mentions, rule.to, from.score, from.strong);
      }
      applyAbsorbs(mentions, compiled.absorbs);
    });

    // Segments are the parts between contrast words. Within one, clauses add up, aspect rules
    // apply, and an aspect named without an opinion takes the opinion of the segment's clauses
    // that name no aspect ("Every nail, every scrap, gone.").
    const segmentCount = tokens.at(-1)!.segment + 1;
    const segments: Mentions[] = Array.from({ length: segmentCount }, () => new Map());
    const orphanOpinion = new Array<number>(segmentCount).fill(0);
    const clauseSegment = new Array<number>(clauseCount).fill(0);
    for (const token of tokens) clauseSegment[token.clause] = token.segment;
    clauses.forEach((mentions, clause) => {
      const segment = clauseSegment[clause]!;
      if (mentions.size === 0) orphanOpinion[segment]! += opinion[clause]!;
      for (const [aspect, mention] of mentions)
        addMention(segments[segment]!, aspect, mention.score, mention.strong);
    });
    segments.forEach((mentions) => applyOverrides(mentions, compiled.overrides));

    // Per aspect, the stance of the last segment that evaluates it (docs/aspects.md: "label the
    // stance the writer lands on, usually the clause after but").
    const opinions: AspectOpinion[] = [];
    for (const aspect of ASPECT_IDS) {
      let named = false;
      let score = 0;
      segments.forEach((mentions, segment) => {
        const mention = mentions.get(aspect);
        if (!mention) return;
        named = true;
        const value = mention.score !== 0 ? mention.score : orphanOpinion[segment]!;
        if (value !== 0) score = value;
      });
      if (!named) continue;
      // The star rating breaks ties when the sentence holds an opinion (docs/aspects.md, scoring).
      if (score === 0 && rating !== undefined && rating !== 3 && opinionated.some(Boolean))
        score = rating - 3;
      opinions.push({
        aspect,
        polarity: score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral',
      });
    }

    if (trace) {
      for (const m of all) {
        const reason = drop.get(m);
        trace.push({
          phrase: m.phrase.source,
          role: m.phrase.role,
          aspect: m.phrase.aspect,
          text: tokens
            .slice(m.start, m.end)
            .map((t) => t.lower)
            .join(' '),
          negated: negated(m),
          ...(reason === undefined ? {} : { dropped: reason }),
        });
      }
    }
    return opinions;
  }

  const tokensOfSentence = (sentence: TokenizedSentence) =>
    tokensOf(sentence.words, sentence.lemmas, sentence.pos, sentence.types, sentence.spaces);

  const analyzeText = (text: string, rating?: number): AnalyzedSentence[] =>
    splitSentences(text).map((sentence, index) => ({
      index,
      text: sentence.text,
      aspects: analyzeTokens(tokensOfSentence(sentence), rating),
    }));

  return {
    analyzeText,
    analyzeReview(text, rating) {
      const sentences = analyzeText(text, rating);
      return {
        sentences,
        aspects: combineSentenceOpinions(
          sentences.map((s) => s.aspects),
          rating,
        ),
      };
    },
    analyzeSentence(text, rating) {
      return analyzeTokens(tokensOfSentence(tokenizeSentence(text)), rating);
    },
    analyzeTokenized(sentence, rating) {
      return analyzeTokens(tokensOfSentence(sentence), rating);
    },
    explainSentence(text, rating) {
      const tokens = tokensOfSentence(tokenizeSentence(text));
      const matches: MatchTrace[] = [];
      const aspects = analyzeTokens(tokens, rating, matches);
      const clauses: string[] = [];
      for (const token of tokens) {
        const word = token.negators.length % 2 === 1 ? `¬${token.lower}` : token.lower;
        clauses[token.clause] = clauses[token.clause] ? `${clauses[token.clause]} ${word}` : word;
      }
      return {
        clauses: clauses.map((c, i) => `[${tokens.find((t) => t.clause === i)?.segment}] ${c}`),
        matches,
        aspects,
      };
    },
  };
}

/**
 * The phrases that may start at a token: by the exact words of their first term, or by the first
 * three letters of its prefixes ("disappoint*"); phrases that start with a token class are tried
 * everywhere.
 */
function indexPhrases(phrases: readonly CompiledPhrase[]): (token: Token) => CompiledPhrase[] {
  const byWord = new Map<string, CompiledPhrase[]>();
  const byStart = new Map<string, CompiledPhrase[]>();
  const rest: CompiledPhrase[] = [];
  const add = (map: Map<string, CompiledPhrase[]>, key: string, phrase: CompiledPhrase) => {
    const list = map.get(key) ?? [];
    if (!list.includes(phrase)) list.push(phrase);
    map.set(key, list);
  };
  for (const phrase of phrases) {
    const first = phrase.terms[0]!;
    if (
      first.kind !== 'words' ||
      first.classes.length > 0 ||
      first.prefixes.some((prefix) => prefix.length < 3)
    ) {
      rest.push(phrase);
      continue;
    }
    for (const word of first.exact) add(byWord, word, phrase);
    for (const prefix of first.prefixes) add(byStart, prefix.slice(0, 3), phrase);
  }
  return (token) => {
    const found = new Set<CompiledPhrase>();
    for (const form of token.forms) {
      for (const phrase of byWord.get(form) ?? []) found.add(phrase);
      for (const phrase of byStart.get(form.slice(0, 3)) ?? []) found.add(phrase);
    }
    for (const phrase of rest) found.add(phrase);
    return [...found];
  };
}

/**
 * The analyzer's pipeline, in order, each step with its one-line reason. A regression in
 * `npm run eval:aspects` can be traced to one step with `npm run --silent aspects -- --explain`.
 */
export const PIPELINE_STEPS = {
  segment: 'split into folded words and clauses; mark negated words and words after a contrast',
  gate: 'report nothing when the model\'s "any aspect" output, in the sentence or one clause, is below the gate',
  detect: `keep each aspect the learned model gives at least the detection threshold, in the whole sentence or in one of its clauses (a clause of over ${LONG_CLAUSE_WORDS} words in parts too)`,
  lexicon:
    "add an aspect the owner's lexicon names when the model gives it at least the lexicon floor",
  polarity:
    "read each kept aspect's stance from the sentence and its most telling clause, and from the polarity network's reading of the sentence's word order",
  'contrast/negation':
    'the clause after but/though speaks for its aspect; negated words count as their own features',
  'tie-break': 'a near tie between positive and negative goes to the star rating',
  trace: 'record what each step decided',
} as const;
export type PipelineStep = keyof typeof PIPELINE_STEPS;

/** Positive and negative closer than this is a tie the rating breaks. */
const TIE_MARGIN = 0.1;

export interface AnalyzerOptions {
  /**
   * The learned model (`defaultAspectModel()` from model/default-model.ts): the pipeline then runs
   * it with the owner's lexicon on top. Without one the lexicon decides alone, as the build does
   * today: see docs/aspects.md for how the two compare.
   */
  model?: AspectModel | null;
}

/** The analyzer. Compile once, call for every review. */
export function createAspectAnalyzer(
  lexicon: Lexicon,
  options: AnalyzerOptions = {},
): AspectAnalyzer {
  const lexiconAnalyzer = createLexiconAnalyzer(lexicon);
  const model = options.model ?? null;
  if (model === null) return lexiconAnalyzer;

  /**
   * `lexicon` gives what the owner's lexicon finds in the sentence; it is asked only when some
   * aspect the model did not report reaches the floor, the only case its answer can change.
   */
  function run(
    text: string,
    lexicon: () => readonly AspectOpinion[],
    rating: number | undefined,
    steps?: StepTrace[],
  ): AspectOpinion[] {
    // The trace's text is built only when one is asked for: the build runs this on every sentence.
    const note = (step: PipelineStep, result: () => string) =>
      steps?.push({ step, reason: PIPELINE_STEPS[step], result: result() });
    // segment
    const tokens = tokenizeForModel(text);
    note('segment', () => `${tokens.words.length} words, ${new Set(tokens.clauses).size} clauses`);
    const scored = scoreSentence(model!, tokens, { splitLongClauses: true });
    // gate
    const open = passesGate(model!, scored.anyProbability);
    note(
      'gate',
      () =>
        `any aspect ${scored.anyProbability.toFixed(2)}, gate ${model!.gate}: ${open ? 'open' : 'closed'}`,
    );
    // detect
    const kept = ASPECT_IDS.filter((_, index) => scored.detected[index]).map((aspect) =>
      scored.opinion(aspect),
    );
    note(
      'detect',
      () => kept.map((c) => `${c.aspect} ${c.probability.toFixed(2)}`).join(', ') || 'none',
    );
    // lexicon (owner override)
    const addable = ASPECT_IDS.filter(
      (_, k) =>
        reportedBy(
          model!,
          scored.probabilities[k]!,
          scored.clauseProbabilities[k]!,
          true,
          scored.anyProbability,
        ) === 'lexicon',
    );
    const named = new Set(addable.length > 0 ? lexicon().map((o) => o.aspect) : []);
    const added = addable
      .filter((aspect) => named.has(aspect))
      .map((aspect) => scored.opinion(aspect));
    note('lexicon', () => added.map((c) => c.aspect).join(', ') || 'nothing added');
    // polarity, contrast/negation, tie-break
    const opinions: AspectOpinion[] = [];
    for (const candidate of [...kept, ...added].sort(
      (a, b) => ASPECT_IDS.indexOf(a.aspect) - ASPECT_IDS.indexOf(b.aspect),
    )) {
      const [positive, negative] = candidate.polarities as [number, number, number];
      let polarity: Polarity = candidate.polarity;
      if (
        rating !== undefined &&
        polarity !== 'neutral' &&
        Math.abs(positive - negative) < TIE_MARGIN
      ) {
        polarity = rating >= 4 ? 'positive' : rating <= 2 ? 'negative' : polarity;
        note('tie-break', () => `${candidate.aspect}: ${polarity} from ${rating} stars`);
      }
      note(
        'polarity',
        () =>
          `${candidate.aspect} ${polarity} (${candidate.polarities.map((p) => p.toFixed(2)).join('/')})`,
      );
      note('contrast/negation', () => `${candidate.aspect}: clause "${candidate.clause}"`);
      opinions.push({ aspect: candidate.aspect, polarity });
    }
    note('trace', () => opinions.map((o) => `${o.aspect}:${o.polarity}`).join(' ') || 'no aspect');
    return opinions;
  }

  const analyzeText = (text: string, rating?: number): AnalyzedSentence[] =>
    splitSentences(text).map((sentence, index) => ({
      index,
      text: sentence.text,
      aspects: run(sentence.text, () => lexiconAnalyzer.analyzeTokenized(sentence, rating), rating),
    }));

  return {
    analyzeText,
    analyzeReview(text, rating) {
      const sentences = analyzeText(text, rating);
      return {
        sentences,
        aspects: combineSentenceOpinions(
          sentences.map((s) => s.aspects),
          rating,
        ),
      };
    },
    analyzeSentence(text, rating) {
      return run(text, () => lexiconAnalyzer.analyzeSentence(text, rating), rating);
    },
    analyzeTokenized(sentence, rating) {
      return run(sentence.text, () => lexiconAnalyzer.analyzeTokenized(sentence, rating), rating);
    },
    explainSentence(text, rating) {
      const lexiconTrace = lexiconAnalyzer.explainSentence(text, rating);
      const steps: StepTrace[] = [];
      const aspects = run(text, () => lexiconTrace.aspects, rating, steps);
      return { ...lexiconTrace, aspects, steps };
    },
  };
}
