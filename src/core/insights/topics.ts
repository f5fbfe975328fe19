// Topics of the insights dataset: noun phrases that recur across reviews ("pipe boot", "hail
// damage"), grouped when they occur in mostly the same reviews. Pure and deterministic: ties are
// broken by the phrase itself, never by Map order or the clock.
import { z } from 'zod';
import { compareNewestFirst, isEnglish, roundedMean, type Review } from '../review.ts';
import { foldText } from '../text.ts';
import type { ReviewAnalysis } from './analysis.ts';
import { ASPECT_IDS, type AspectId } from './lexicon.ts';
import type { TokenizedSentence } from './sentences.ts';

export const TOPICS_MAX = 12;
/** A phrase becomes a topic candidate when this many reviews use it (or 1% of them, if more). */
export const TOPIC_MIN_REVIEWS = 3;
/** Phrases in more than this share of the reviews say nothing distinctive ("new roof"). */
export const TOPIC_MAX_SHARE = 0.5;
/** Two phrases are one topic when their review sets overlap this much (Jaccard index). */
export const TOPIC_MERGE_OVERLAP = 0.5;
/**
 * A phrase that shares a word with a topic's first phrase joins it when this share of its reviews
 * are the topic's already ("claim paperwork" in "insurance claim", "dam removal" in "ice dam"):
 * a topic of its own would repeat that one.
 */
export const TOPIC_CONTAINED = 0.8;
/**
 * A thing of the trade (TRADE_WORDS) in more than this share of the reviews is what the business
 * does, not one theme of it (hail, where the reviews are mostly about hail): it groups no phrases
 * that open with it and is no one-word topic of a small business. Below it, phrases that open
 * with the same thing are one theme, however the reviews go on: "hail claim", "hail damage" and
 * "hail inspection"; "tpo roof" and "tpo membrane".
 */
export const TOPIC_THEME_MAX_SHARE = 0.25;
/**
 * A topic's first phrase is named by a longer phrase that holds it when this share of its reviews
 * use the longer one: "ice dam removal" rather than "dam removal".
 */
export const TOPIC_WHOLE_SHARE = 2 / 3;
export const TOPIC_KEYWORDS_MAX = 6;
export const TOPIC_REVIEW_IDS_MAX = 100;
/** Below this many reviews a phrase in two reviews already recurs. */
export const SMALL_BUSINESS_REVIEWS = 100;
/** A business gets at least this many topics when its reviews allow it (its services fill in). */
export const TOPICS_MIN = 3;
/**
 * In a small business, a thing of the trade named in one word (TRADE_WORDS) by this share of the
 * reviews, and by TOPIC_WORD_MIN_REVIEWS at least, is a topic of its own ("insulation",
 * "financing").
 */
export const TOPIC_WORD_MIN_SHARE = 0.1;
export const TOPIC_WORD_MIN_REVIEWS = 4;
/** What most roofs are made of: alone, it says no more than "roof" does. */
const TRADE_STAPLES = new Set(['shingle']);

export const TopicSchema = z.object({
  id: z.string().meta({
    description:
      'the label as a slug of its words in their base form (gutter guards: gutter-guard)',
  }),
  label: z.string().meta({
    description:
      'the phrase of the topic, lower-cased, as its reviews write it most; a harm or errand of the trade named in one word (a leak, nails, the insurance claim) is named with the aspect its reviews judge of it: leak repair, nail cleanup',
  }),
  keywords: z.array(z.string()).meta({
    description: 'phrases of the topic as its reviews write them, most used first',
  }),
  review_count: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'reviews that use one of the keywords' }),
  average_rating: z.number().nullable().meta({ description: 'mean rating of those reviews' }),
  review_ids: z.array(z.string()).meta({
    description: `ids of those reviews, newest first, at most ${TOPIC_REVIEW_IDS_MAX}`,
  }),
});

export type Topic = z.infer<typeof TopicSchema>;

// Words that make a phrase but not a topic: time, order, quantity and state ("following week",
// "monsoon season", "not a single nail", "the finished roof").
const GENERIC_WORDS = new Set([
  'new',
  'old',
  'whole',
  'entire',
  'next',
  'last',
  'first',
  'second',
  'third',
  'single',
  'same',
  'other',
  'few',
  'several',
  'many',
  'much',
  'more',
  'most',
  'little',
  'big',
  'small',
  'large',
  'lot',
  'couple',
  'bit',
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'year',
  'years',
  'season',
  'seasons',
  'time',
  'times',
  'hour',
  'hours',
  'minute',
  'minutes',
  'morning',
  'afternoon',
  'evening',
  'night',
  'today',
  'yesterday',
  'tomorrow',
  'thing',
  'things',
  'way',
  'part',
  'kind',
  'sort',
  'everything',
  'something',
  'anything',
  'nothing',
  'place',
  'people',
  'guy',
  'guys',
  'folks',
  'company',
  'following',
  'previous',
  'recent',
  'early',
  'late',
  'finished',
  'full',
  'half',
  'extra',
  'real',
  'sure',
]);

/**
 * Words of praise and complaint, which make a phrase a mood, not a topic ("great job", "fair
 * price", "rude crew"). Every business gets these; an owner's lexicon adds its own words.
 */
export const OPINION_WORDS: ReadonlySet<string> = new Set(
  `great good excellent amazing awesome fantastic wonderful perfect outstanding superb terrific
  impressive beautiful gorgeous stunning happy pleased satisfied thrilled grateful thankful best
  better nice fine flawless smooth painless easy helpful reliable pleasant exceptional incredible
  phenomenal stellar fabulous impeccable meticulous fair reasonable affordable honest friendly
  professional courteous polite respectful knowledgeable prompt quick fast efficient thorough
  responsive timely tidy top-notch decent superior awesome lovely brilliant wow highest
  recommended trustworthy genuine positive
  bad terrible horrible awful poor worst worse unhappy upset angry furious shoddy careless lazy
  incompetent useless ridiculous unacceptable subpar mediocre unreliable rude sloppy disorganized
  unprofessional lousy pathetic dreadful horrendous atrocious disappointing disappointed
  frustrating frustrated overpriced pricey shady sketchy negative unresponsive`.split(/\s+/),
);

/**
 * The things of the roofing trade a review names in one word: the roof's parts, its materials,
 * the weather that harms it, the paperwork around it. When a small business's reviews give too
 * few phrase topics and services, these make topics on their own ("skylights", "moss removal").
 */
export const TRADE_WORDS: ReadonlySet<string> = new Set(
  `shingle gutter downspout chimney skylight flashing vent ventilation leak hail storm wind
  tornado hurricane hailstorm windstorm monsoon moss algae mold mildew rot attic insulation permit
  insurance adjuster claim supplement warranty tarp soffit fascia eave eaves siding decking
  sheathing underlayment tile slate shake metal panel seam screw fastener foam solar ridge valley
  membrane coating sealant caulk nail debris dumpster snow ice icicle tree branch squirrel raccoon
  inspection financing dormer parapet drain ponding plywood drywall ceiling rafter truss tpo epdm
  pvc`.split(/\s+/),
);

/**
 * People by their role or relation: a phrase ending in one is somebody ("office manager", "next
 * door neighbor"), and the people of a business are its entities, not topics.
 */
const PEOPLE = new Set(
  `manager salesman saleswoman salesperson owner foreman supervisor estimator inspector
  representative rep
  husband wife son daughter neighbor neighbour mom dad mother father boss lady gentleman man
  woman receptionist secretary assistant`.split(/\s+/),
);

const HEAD_TAGS = new Set(['NOUN', 'PROPN']);
const CONTENT_TAGS = new Set(['NOUN', 'PROPN', 'ADJ']);
const WORD = /^[a-z][a-z'-]{2,}$/;

/**
 * The folded words of a business name: "Summit Ridge Roofing" → summit, ridge, roofing; "Peña"
 * → pena.
 */
export function nameWords(name: string): Set<string> {
  return new Set(
    foldText(name)
      .split(/[^a-z']+/)
      .filter(Boolean),
  );
}

/** A word written as a name: a proper noun capitalized after the sentence's first word. */
function writtenAsName(sentence: TokenizedSentence, i: number): boolean {
  return i > 0 && sentence.pos[i] === 'PROPN' && /^\p{Lu}\p{Ll}/u.test(sentence.words[i]!);
}

const isGerund = (sentence: TokenizedSentence, i: number) =>
  sentence.pos[i] === 'VERB' && /^[a-z]{3,}ing$/.test(sentence.words[i]!.toLowerCase());

/**
 * The words tagged as common nouns somewhere in the sentences, lower-cased, each with its base
 * form: "nails" → nail, and the -ing words used as things ("the flashing was bent") → themselves.
 * Where one word has several base forms, the first in code-point order, so that the order of the
 * reviews never matters.
 */
export function nounsOf(sentences: Iterable<TokenizedSentence>): Map<string, string> {
  const found = new Map<string, string>();
  for (const sentence of sentences)
    sentence.words.forEach((word, i) => {
      if (sentence.pos[i] !== 'NOUN') return;
      const lower = word.toLowerCase();
      const lemma = sentence.lemmas[i];
      const base = lemma && lemma !== 'undefined' ? lemma.toLowerCase() : lower;
      const known = found.get(lower);
      if (known === undefined || base < known) found.set(lower, base);
    });
  return found;
}

/** A sentence written in capitals only ("THE GUTTER GUARDS ARE GARBAGE"): shouted. */
function shouted(sentence: TokenizedSentence): boolean {
  const letters = sentence.words.join('');
  return /\p{Lu}/u.test(letters) && !/\p{Ll}/u.test(letters);
}

/**
 * The singular of a shouted plural, which the tagger leaves as it is: "GUARDS" → guard. Words of
 * four letters or more ending in one s, not "ss", "us" or "is".
 */
function singularOfShouted(lower: string): string {
  return lower.length >= 4 && /[^sui]s$/.test(lower) ? lower.slice(0, -1) : lower;
}

/**
 * The part of speech a word has in a noun phrase. The tagger reads every word of a shouted
 * sentence as a proper noun: they are common nouns there. It often reads an -ing word as a verb
 * where it names a thing: it is a noun when the reviews use it as one elsewhere ("skylight
 * flashing", "roof decking"), and a modifier right before a noun ("ponding water", "leaking
 * skylight"); elsewhere it stays a verb ("the crew working on it"). It reads the capitalized first
 * word of a sentence as a name ("Nails in the driveway for weeks.", "Leak around the chimney."):
 * that word is a common noun when the reviews use it as one elsewhere, unless a name goes on after
 * it ("Hurricane Ian") or it is a word of a name the business gave (`named`: a technician Bill
 * Snow in "Snow was on time.").
 */
function phrasePos(
  sentence: TokenizedSentence,
  i: number,
  named: ReadonlySet<string>,
  nouns: ReadonlyMap<string, string>,
  loud: boolean,
): string {
  const pos = sentence.pos[i]!;
  if (loud && pos === 'PROPN') return 'NOUN';
  if (i === 0 && pos === 'PROPN' && sentence.pos[1] !== 'PROPN') {
    const word = sentence.words[0]!;
    return nouns.has(word.toLowerCase()) && !named.has(foldText(word)) ? 'NOUN' : pos;
  }
  if (!isGerund(sentence, i)) return pos;
  if (nouns.has(sentence.words[i]!.toLowerCase())) return 'NOUN';
  return sentence.pos[i + 1] === 'NOUN' ? 'ADJ' : pos;
}

/** A word of a phrase: its lemma (`term`), as written, and whether a phrase may use it. */
interface PhraseWord {
  term: string;
  written: string;
  pos: string;
  /** Whether a word joined by hyphens may hold it: `plain`, or a generic word ("single-ply"). */
  part: boolean;
  /** Whether a phrase may use the word, whatever the tagger made of it. */
  plain: boolean;
  /** `plain`, and a word a phrase is made of (a noun or an adjective). */
  usable: boolean;
  /** Written as a name: capitalized after the sentence's first word. */
  name: boolean;
  hyphen: boolean;
}

/**
 * A sentence's words as phrases read them, words joined by hyphens made one. `excluded`, `named`
 * and `nouns` as `writtenNounPhrases` takes them.
 */
function phraseWords(
  sentence: TokenizedSentence,
  excluded: ReadonlySet<string>,
  named: ReadonlySet<string>,
  nouns: ReadonlyMap<string, string>,
): PhraseWord[] {
  const loud = shouted(sentence);
  const words = sentence.words.map((word, i): PhraseWord => {
    const pos = phrasePos(sentence, i, named, nouns, loud);
    const lower = word.toLowerCase();
    // Folded, so that "façade" is a word of a topic and one with "facade".
    const folded = foldText(word);
    const lemma = sentence.lemmas[i];
    const term =
      loud && sentence.pos[i] === 'PROPN'
        ? singularOfShouted(folded)
        : pos === 'NOUN' && sentence.pos[i] === 'NOUN' && lemma && lemma !== 'undefined'
          ? foldText(lemma)
          : pos === 'NOUN' && sentence.pos[i] === 'PROPN'
            ? foldText(nouns.get(lower) ?? lower)
            : folded;
    const asName = i > 0 && named.has(folded) && word[0] !== lower[0];
    // A word that may be part of a word joined by hyphens: generic alone, "single" is no generic
    // part of "single-ply".
    const part = !sentence.stopWords[i] && WORD.test(term) && !excluded.has(term) && !asName;
    // A word that may be part of a phrase, whatever the tagger made of it.
    const plain = part && !GENERIC_WORDS.has(term);
    return {
      term,
      // As written, where the words are plain ones ("gutter guards"); a term the tagger gave no
      // lemma for, or one made of other letters, stays the term.
      written: WORD.test(folded) ? folded : term,
      pos,
      part,
      plain,
      usable: plain && CONTENT_TAGS.has(pos),
      name: writtenAsName(sentence, i),
      hyphen: word === '-' && sentence.spaces[i] === '' && sentence.spaces[i + 1] === '',
    };
  });
  const merged: PhraseWord[] = [];
  for (let i = 0; i < words.length; i++) {
    let word = words[i]!;
    // Words joined by hyphens are one word ("impact-resistant shingles" is not "resistant
    // shingles", however the tagger read "impact"): usable when each part is a plain word, or a
    // generic one ("single-ply membrane", "half-round gutters"), and the last a content word, and
    // left out whole otherwise ("built-in", "no-show").
    while (words[i + 1]?.hyphen && words[i + 2]) {
      const next = words[i + 2]!;
      const term = `${word.term}-${next.term}`;
      const part = word.part && next.part && !excluded.has(term);
      const plain = part && !GENERIC_WORDS.has(term);
      word = {
        ...next,
        term,
        written: `${word.written}-${next.written}`,
        part,
        plain,
        usable: plain && CONTENT_TAGS.has(next.pos),
        name: false,
      };
      i += 2;
    }
    merged.push(word);
  }
  return merged;
}

/** A noun phrase as lemmas, and as the sentence writes it, lower-cased. */
export interface WrittenPhrase {
  /** Lemmas: "gutter guard" for "gutter guards", "GUTTER GUARDS" and "gutter guard". */
  phrase: string;
  /** The words as written, folded to lower case without accents: "gutter guards". */
  written: string;
}

/**
 * The noun phrases (2–3 words ending in a noun) of one sentence, as lemmas and as written. A
 * word of the business's name (`named`) is left out where it is written as a name, capitalized
 * after the sentence's first word ("the Summit Ridge crew"), and kept where it is a common word
 * ("the ridge vent"). A phrase that ends in a name is someone or somewhere, not a topic ("adjuster
 * Rhonda", "Matakana Island"); a name before a thing stays ("a Velux skylight"). `nouns` as
 * `nounsOf` gives.
 */
export function writtenNounPhrases(
  sentence: TokenizedSentence,
  excluded: ReadonlySet<string>,
  named: ReadonlySet<string> = new Set(),
  nouns: ReadonlyMap<string, string> = new Map(),
): WrittenPhrase[] {
  const phrases: WrittenPhrase[] = [];
  let run: { term: string; written: string; pos: string; name: boolean }[] = [];
  const flush = () => {
    for (let start = 0; start < run.length; start++) {
      for (let length = 2; length <= 3 && start + length <= run.length; length++) {
        const words = run.slice(start, start + length);
        const head = words.at(-1)!;
        if (!HEAD_TAGS.has(head.pos) || head.name || PEOPLE.has(head.term)) continue;
        phrases.push({
          phrase: words.map((w) => w.term).join(' '),
          written: words.map((w) => w.written).join(' '),
        });
      }
    }
    run = [];
  };
  for (const word of phraseWords(sentence, excluded, named, nouns)) {
    if (word.usable) run.push(word);
    else flush();
  }
  flush();
  return phrases;
}

/**
 * The sentences topics are read from: the title's and the text's, of a review in English (in
 * other languages the tagger finds greetings and fillers, "muy buen trabajo", "mihi nui"). A title
 * names a topic as plainly as the text: "Warranty paperwork still pending".
 */
function topicSentences(analysis: ReviewAnalysis): TokenizedSentence[] {
  if (!isEnglish(analysis.review.language)) return [];
  return [...analysis.title, ...analysis.sentences.map((sentence) => sentence.tokens)];
}

/** The Jaccard index of two sets of reviews. */
function overlap(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  let shared = 0;
  for (const review of a) if (b.has(review)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** Whether `phrase` holds `part` as whole words: "ice dam removal" holds "dam removal". */
function contains(phrase: string, part: string): boolean {
  return ` ${phrase} `.includes(` ${part} `);
}

/** The words of TRADE_WORDS a sentence uses as nouns, as `writtenNounPhrases` gives phrases. */
export function tradeWords(
  sentence: TokenizedSentence,
  excluded: ReadonlySet<string> = new Set(),
  named: ReadonlySet<string> = new Set(),
  nouns: ReadonlyMap<string, string> = new Map(),
): WrittenPhrase[] {
  return phraseWords(sentence, excluded, named, nouns)
    .filter((word) => word.usable && word.pos === 'NOUN' && TRADE_WORDS.has(word.term))
    .map((word) => ({ phrase: word.term, written: word.written }));
}

/**
 * The things of the trade that are no part of a roof but what befalls it or the job (a leak, hail,
 * moss, nails in the yard, the insurance claim): named alone they say nothing of the reviews
 * ("snow" holds "the first snow" as a date), so they are named by what their reviews judge.
 */
const TRADE_CONDITIONS: ReadonlySet<string> = new Set(
  `leak hail storm wind tornado hurricane hailstorm windstorm monsoon moss algae mold mildew rot nail
  debris snow ice icicle tree branch squirrel raccoon insurance adjuster claim supplement permit
  warranty inspection financing ponding`.split(/\s+/),
);
/** Harm to a roof, named by what is done about it: "hail damage repair", "moss removal". */
const DAMAGE = new Set(
  'hail storm wind tornado hurricane hailstorm windstorm monsoon snow ice tree branch squirrel raccoon'.split(
    ' ',
  ),
);
const GROWTH = new Set('moss algae mold mildew'.split(' '));
/**
 * Things that are themselves the business of an aspect, and what a topic of them judged on that
 * aspect is named: they need no word for the aspect.
 */
const ASPECT_THINGS: Partial<Record<AspectId, Readonly<Record<string, string>>>> = {
  insurance_claims: {
    insurance: 'insurance claim help',
    claim: 'insurance claim help',
    adjuster: 'insurance claim help',
    supplement: 'insurance claim help',
  },
  warranty: { warranty: 'warranty' },
  estimate_inspection: { inspection: 'inspection' },
  price_value: { financing: 'financing' },
  professionalism: { permit: 'permit handling' },
};

/**
 * A thing of the trade (its base form) named with what its reviews judge of it, as a person
 * would name the theme: "leak repair", "gutter work", "nail cleanup", "insurance claim help",
 * "skylight warranty".
 */
export function themeLabel(word: string, aspect: AspectId): string {
  const own = ASPECT_THINGS[aspect]?.[word];
  if (own !== undefined) return own;
  switch (aspect) {
    case 'workmanship':
      if (word === 'leak') return 'leak repair';
      if (DAMAGE.has(word)) return `${word} damage repair`;
      if (GROWTH.has(word)) return `${word} removal`;
      return `${word} work`;
    case 'estimate_inspection':
      return word === 'leak' ? 'leak detection' : `${word} inspection`;
    case 'cleanup':
      return `${word} cleanup`;
    case 'price_value':
      return `${word} cost`;
    case 'timeliness':
      return `${word} scheduling`;
    case 'communication':
      return `${word} updates`;
    case 'professionalism':
      return `${word} expertise`;
    case 'insurance_claims':
      return `${word} claim help`;
    case 'warranty':
      return `${word} warranty`;
    case 'customer_service':
      return `${word} service`;
  }
}

function slug(text: string): string {
  return foldText(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Topics from the review texts written in English. `excluded` holds words that must not make a
 * phrase beside OPINION_WORDS: the owner's opinion words (a topic is a thing, not a mood).
 * Names are no topics: the business's own, and `names` (its technicians and service areas, which
 * are entities). But their words are often common ones ("Summit Ridge", "Bill Snow", "Flat
 * Rock"): they are left out only where written as a name, and a phrase made of them alone
 * ("summit ridge", "bill snow") is dropped, so that "snow guard" and "flat roof" stay topics.
 */
export function computeTopics(
  analyses: readonly ReviewAnalysis[],
  excluded: ReadonlySet<string>,
  services: readonly { id: string; name: string }[] = [],
  businessName = '',
  names: readonly string[] = [],
): Topic[] {
  const named = new Set([businessName, ...names].flatMap((name) => [...nameWords(name)]));
  const skipped = new Set([...OPINION_WORDS, ...excluded]);
  const isName = (phrase: string) => phrase.split(' ').every((word) => named.has(word));
  const nouns = nounsOf(
    analyses.flatMap((analysis) => analysis.sentences.map((sentence) => sentence.tokens)),
  );
  const reviewsOf = new Map<string, Set<number>>();
  // How often each phrase (or word) is written each way: "seamless gutters" 5, "seamless gutter" 1.
  const writings = new Map<string, Map<string, number>>();
  const note = (reviews: Map<string, Set<number>>, found: WrittenPhrase, index: number) => {
    let set = reviews.get(found.phrase);
    if (!set) reviews.set(found.phrase, (set = new Set()));
    set.add(index);
    let ways = writings.get(found.phrase);
    if (!ways) writings.set(found.phrase, (ways = new Map()));
    ways.set(found.written, (ways.get(found.written) ?? 0) + 1);
  };
  analyses.forEach((analysis, index) => {
    for (const sentence of topicSentences(analysis)) {
      for (const found of writtenNounPhrases(sentence, skipped, named, nouns))
        if (!isName(found.phrase)) note(reviewsOf, found, index);
    }
  });
  // A phrase is shown the way the reviews write it most (the lemmas read "seamless gutter" for
  // "seamless gutters"); ties go to the first in code-point order, so the bytes never depend on
  // the order of the reviews.
  const shown = (phrase: string) => {
    let best = phrase;
    let most = 0;
    for (const [written, count] of writings.get(phrase) ?? []) {
      if (count > most || (count === most && written < best)) {
        best = written;
        most = count;
      }
    }
    return best;
  };
  const minReviews =
    analyses.length < SMALL_BUSINESS_REVIEWS
      ? 2
      : Math.max(TOPIC_MIN_REVIEWS, Math.ceil(analyses.length * 0.01));
  const maxReviews = Math.max(minReviews, Math.floor(analyses.length * TOPIC_MAX_SHARE));
  const candidates = [...reviewsOf]
    .filter(([, set]) => set.size >= minReviews && set.size <= maxReviews)
    .sort(([a, x], [b, y]) => y.size - x.size || (a < b ? -1 : a > b ? 1 : 0));

  // The trade's things that open phrases of a theme here: in phrases of no more than
  // TOPIC_THEME_MAX_SHARE of the reviews.
  const modifierReviews = new Map<string, Set<number>>();
  for (const [phrase, reviews] of reviewsOf) {
    const modifier = phrase.slice(0, phrase.indexOf(' '));
    if (!TRADE_WORDS.has(modifier)) continue;
    let set = modifierReviews.get(modifier);
    if (!set) modifierReviews.set(modifier, (set = new Set()));
    for (const review of reviews) set.add(review);
  }
  const themes = new Set(
    [...modifierReviews]
      .filter(([, reviews]) => reviews.size <= analyses.length * TOPIC_THEME_MAX_SHARE)
      .map(([modifier]) => modifier),
  );

  // A phrase joins the group whose first (most used) phrase it overlaps most, or failing that the
  // one whose first phrase shares a word with it and holds nearly all its reviews, or failing that
  // the one whose first phrase opens with the same thing of the trade ("hail damage" in "hail
  // claim"). Comparing with the first phrase, not the growing union, keeps a group from
  // swallowing everything.
  const groups: { phrases: string[]; first: Set<number>; reviews: Set<number> }[] = [];
  for (const [phrase, reviews] of candidates) {
    let best: (typeof groups)[number] | undefined;
    let bestOverlap = 0;
    let within: (typeof groups)[number] | undefined;
    let withinShare = 0;
    const words = phrase.split(' ');
    for (const group of groups) {
      let shared = 0;
      for (const review of reviews) if (group.first.has(review)) shared += 1;
      // Sharing fewer reviews than a topic needs is coincidence, whatever the ratio.
      if (shared < minReviews) continue;
      const overlap = shared / (reviews.size + group.first.size - shared);
      if (overlap > bestOverlap) {
        best = group;
        bestOverlap = overlap;
      }
      const share = shared / reviews.size;
      const first = group.phrases[0]!.split(' ');
      if (share > withinShare && words.some((word) => first.includes(word))) {
        within = group;
        withinShare = share;
      }
    }
    const joined =
      best && bestOverlap >= TOPIC_MERGE_OVERLAP
        ? best
        : withinShare >= TOPIC_CONTAINED
          ? within
          : themes.has(words[0]!)
            ? groups.find((group) => group.phrases[0]!.split(' ')[0] === words[0])
            : undefined;
    if (joined) {
      joined.phrases.push(phrase);
      for (const review of reviews) joined.reviews.add(review);
    } else if (groups.length < TOPICS_MAX) {
      groups.push({ phrases: [phrase], first: reviews, reviews: new Set(reviews) });
    }
  }

  const fromPhrases = groups.map((group) => {
    const first = group.phrases[0]!;
    const size = reviewsOf.get(first)!.size;
    // A fragment of a longer phrase that most of its reviews use ("dam removal" in "ice dam
    // removal") is named by the longer phrase, which sorts after it only by the alphabet or
    // because the tagger missed a word of it once ("Fast ice" read as a verb).
    const whole = group.phrases
      .filter(
        (phrase) =>
          contains(phrase, first) && reviewsOf.get(phrase)!.size >= size * TOPIC_WHOLE_SHARE,
      )
      .reduce((a, b) => (b.split(' ').length > a.split(' ').length ? b : a), first);
    // The same holds for its other phrases: "seam steel" says nothing "seam steel roof" does not.
    const phrases = [whole, ...group.phrases.filter((phrase) => phrase !== whole)].filter(
      (phrase, k, all) =>
        k === 0 ||
        !all.some(
          (other) =>
            other !== phrase &&
            contains(other, phrase) &&
            reviewsOf.get(other)!.size >= reviewsOf.get(phrase)!.size * TOPIC_WHOLE_SHARE,
        ),
    );
    return {
      id: slug(whole),
      label: shown(whole),
      keywords: [...new Set(phrases.slice(0, TOPIC_KEYWORDS_MAX).map(shown))],
      reviews: group.reviews,
    };
  });
  // Too few recurring phrases (a small business): the services its reviews are about are topics
  // a person would name too ("roof replacement", "seamless gutters & guards").
  if (fromPhrases.length < TOPICS_MIN) {
    const taken = new Set(fromPhrases.flatMap((topic) => [topic.id, slug(topic.label)]));
    // A service whose reviews are mostly a phrase topic's already ("flat & low-slope roofing"
    // beside "flat roof") would say the same thing twice.
    const repeats = (reviews: ReadonlySet<number>) =>
      fromPhrases.some((topic) => overlap(reviews, topic.reviews) >= TOPIC_MERGE_OVERLAP);
    const byService = services
      .map((service) => ({
        id: slug(service.name),
        label: service.name.toLowerCase(),
        keywords: [service.name.toLowerCase()],
        reviews: new Set(
          analyses.flatMap((analysis, index) =>
            analysis.review.service_ids.includes(service.id) ? [index] : [],
          ),
        ),
      }))
      .filter(
        (topic) =>
          topic.reviews.size >= 2 && !taken.has(slug(topic.label)) && !repeats(topic.reviews),
      )
      .sort((a, b) => b.reviews.size - a.reviews.size || (a.label < b.label ? -1 : 1));
    fromPhrases.push(...byService.slice(0, TOPICS_MAX - fromPhrases.length));
  }
  // Still too few (reviews of one service, say): the trade's things they name in one word,
  // ("skylights", "moss"), save a word a topic already holds ("gutter" beside "seamless gutters")
  // or one whose reviews are mostly a topic's already. A small business's reviews seldom repeat a
  // phrase, so there a thing named in one word by many of them is a topic too ("insulation",
  // "financing"), ahead of phrases of two reviews.
  const small = analyses.length < SMALL_BUSINESS_REVIEWS;
  if (fromPhrases.length < TOPICS_MIN || small) {
    const wordReviews = new Map<string, Set<number>>();
    // Per word, the reviews in which a sentence using it judges each aspect.
    const wordAspects = new Map<string, Map<AspectId, Set<number>>>();
    analyses.forEach((analysis, index) => {
      if (!isEnglish(analysis.review.language)) return;
      for (const sentence of analysis.title)
        for (const found of tradeWords(sentence, skipped, named, nouns))
          note(wordReviews, found, index);
      for (const sentence of analysis.sentences)
        for (const found of tradeWords(sentence.tokens, skipped, named, nouns)) {
          note(wordReviews, found, index);
          let byAspect = wordAspects.get(found.phrase);
          if (!byAspect) wordAspects.set(found.phrase, (byAspect = new Map()));
          for (const { aspect } of sentence.aspects) {
            let set = byAspect.get(aspect);
            if (!set) byAspect.set(aspect, (set = new Set()));
            set.add(index);
          }
        }
    });
    /**
     * What the reviews naming a thing say about it: of the reviews that judge something in a
     * sentence naming it, the aspect at least half of them judge there, with those reviews ("nail
     * cleanup": the nails left in the yard, not the nail gun); none when no aspect holds half of
     * them or when they judge nothing there (the first snow, named as a date).
     */
    const themeOf = (word: string) => {
      const byAspect = wordAspects.get(word) ?? new Map<AspectId, Set<number>>();
      let best: { aspect: AspectId; reviews: Set<number> } | undefined;
      for (const aspect of ASPECT_IDS) {
        const judged = byAspect.get(aspect);
        if (!judged) continue;
        // Ties go to the aspect the thing is the business of ("insurance": the claim).
        const ahead = judged.size > (best?.reviews.size ?? 0);
        const owns =
          judged.size === best?.reviews.size && ASPECT_THINGS[aspect]?.[word] !== undefined;
        if (ahead || owns) best = { aspect, reviews: judged };
      }
      const judging = new Set([...byAspect.values()].flatMap((reviews) => [...reviews])).size;
      if (!best || best.reviews.size * 2 < judging || best.reviews.size < minReviews)
        return undefined;
      const label = themeLabel(word, best.aspect);
      return { id: slug(label), label, keywords: [shown(word)], reviews: best.reviews };
    };
    const held = new Set(
      fromPhrases.flatMap((topic) => [
        ...topic.id.split('-'),
        ...topic.keywords.flatMap((keyword) => keyword.split(/[\s-]+/)),
      ]),
    );
    const byWord = [...wordReviews]
      .filter(
        ([word, reviews]) =>
          reviews.size >= minReviews &&
          reviews.size <= maxReviews &&
          !held.has(word) &&
          !held.has(`${word}s`),
      )
      .sort(([a, x], [b, y]) => y.size - x.size || (a < b ? -1 : a > b ? 1 : 0));
    const themeMin = Math.max(
      TOPIC_WORD_MIN_REVIEWS,
      Math.ceil(analyses.length * TOPIC_WORD_MIN_SHARE),
    );
    for (const [word, reviews] of byWord) {
      const bare = { id: word, label: shown(word), keywords: [shown(word)], reviews };
      // A part or material is a topic by its name ("skylights"); a harm, a growth or an errand
      // only by what its reviews judge of it ("leak repair", not "leak" nor the first snow).
      const theme = TRADE_CONDITIONS.has(word) ? themeOf(word) : bare;
      const topic =
        fromPhrases.length < TOPICS_MIN
          ? (theme ?? bare)
          : small &&
              theme &&
              !TRADE_STAPLES.has(word) &&
              reviews.size >= themeMin &&
              reviews.size <= analyses.length * TOPIC_THEME_MAX_SHARE
            ? theme
            : undefined;
      if (!topic) continue;
      // "insurance" and "claim" both name the insurance claim help: one topic of that name.
      const repeated = (other: (typeof fromPhrases)[number]) =>
        other.id === topic.id || overlap(topic.reviews, other.reviews) >= TOPIC_MERGE_OVERLAP;
      if (fromPhrases.some(repeated)) continue;
      fromPhrases.push(topic);
    }
  }

  return fromPhrases
    .map((group) => {
      const reviews: Review[] = [...group.reviews]
        .map((index) => analyses[index]!.review)
        .sort(compareNewestFirst);
      return {
        id: group.id,
        label: group.label,
        keywords: group.keywords,
        review_count: reviews.length,
        average_rating: roundedMean(
          reviews.reduce((sum, r) => sum + r.rating, 0),
          reviews.length,
        ),
        review_ids: reviews.slice(0, TOPIC_REVIEW_IDS_MAX).map((r) => r.id),
      };
    })
    .sort((a, b) => b.review_count - a.review_count || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, TOPICS_MAX);
}
