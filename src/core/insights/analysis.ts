// Every published review read once: its sentences (tokens for topics, aspects for the figures)
// and its review-level aspect opinions. Input of the aspect, entity, topic and summary sections.
import { isEnglish, type Review } from '../review.ts';
import {
  combineSentenceOpinions,
  createAspectAnalyzer,
  type AspectAnalyzer,
  type AspectOpinion,
} from './aspects.ts';
import type { Lexicon } from './lexicon.ts';
import type { AspectModel } from './model/aspect-model.ts';
import { splitSentences, titleAsSentence, type TokenizedSentence } from './sentences.ts';

export interface SentenceAnalysis {
  index: number;
  tokens: TokenizedSentence;
  aspects: AspectOpinion[];
}

export interface ReviewAnalysis {
  review: Review;
  /** The title's sentences, for the topics; the figures read the text alone. */
  title: TokenizedSentence[];
  sentences: SentenceAnalysis[];
  aspects: AspectOpinion[];
}

// Compiling a lexicon takes longer than analysing a review: once per lexicon and model.
const analyzers = new WeakMap<Lexicon, Map<AspectModel | null, AspectAnalyzer>>();

/**
 * The analyzer the insights use: the learned pipeline (the model, with the owner's lexicon on top),
 * or the lexicon alone when `model` is null.
 */
export function analyzerFor(lexicon: Lexicon, model: AspectModel | null): AspectAnalyzer {
  let byModel = analyzers.get(lexicon);
  if (!byModel) {
    byModel = new Map();
    analyzers.set(lexicon, byModel);
  }
  let analyzer = byModel.get(model);
  if (!analyzer) {
    analyzer = createAspectAnalyzer(lexicon, { model });
    byModel.set(model, analyzer);
  }
  return analyzer;
}

/** What the analysis of one review finds, apart from the review itself. */
export type ReviewFindings = Omit<ReviewAnalysis, 'review'>;

/** What the analysis reads of a review. */
export type ReviewInput = Pick<Review, 'text' | 'rating' | 'language' | 'title'>;

/**
 * One review's sentences and aspect opinions, and its title's sentences. The model and the lexicon
 * read English: in a review in another language they find only cognates ("profesional"), so it
 * has no aspects (its sentences are still split, for the topics, which skip it too).
 */
function analyzeReviewText(analyzer: AspectAnalyzer, review: ReviewInput): ReviewFindings {
  const { text, rating } = review;
  const english = isEnglish(review.language);
  const sentences = splitSentences(text).map((tokens, index) => ({
    index,
    tokens,
    aspects: english ? analyzer.analyzeTokenized(tokens, rating) : [],
  }));
  return {
    title: english && review.title ? splitSentences(titleAsSentence(review.title)) : [],
    sentences,
    aspects: combineSentenceOpinions(
      sentences.map((s) => s.aspects),
      rating,
    ),
  };
}

/** The findings of the reviews of one batch: [batch * size, (batch + 1) * size). */
export function analyzeBatch(
  analyzer: AspectAnalyzer,
  reviews: readonly ReviewInput[],
  batch: number,
  size: number,
): ReviewFindings[] {
  return reviews
    .slice(batch * size, (batch + 1) * size)
    .map((review) => analyzeReviewText(analyzer, review));
}

export function analyzeReviews(
  reviews: readonly Review[],
  lexicon: Lexicon,
  model: AspectModel | null,
): ReviewAnalysis[] {
  const analyzer = analyzerFor(lexicon, model);
  return reviews.map((review) => ({
    review,
    ...analyzeReviewText(analyzer, review),
  }));
}
