// Every published review read once: its sentences (tokens for topics, aspects for the figures)
// and its review-level aspect opinions. Input of the aspect, entity, topic and summary sections.
import type { Review } from '../review.ts';
import {
  combineSentenceOpinions,
  createAspectAnalyzer,
  type AspectAnalyzer,
  type AspectOpinion,
} from './aspects.ts';
import type { Lexicon } from './lexicon.ts';
import { splitSentences, type TokenizedSentence } from './sentences.ts';

export interface SentenceAnalysis {
  index: number;
  tokens: TokenizedSentence;
  aspects: AspectOpinion[];
}

export interface ReviewAnalysis {
  review: Review;
  sentences: SentenceAnalysis[];
  aspects: AspectOpinion[];
}

// Compiling a lexicon takes longer than analysing a review: once per lexicon object.
const analyzers = new WeakMap<Lexicon, AspectAnalyzer>();

export function analyzerFor(lexicon: Lexicon): AspectAnalyzer {
  let analyzer = analyzers.get(lexicon);
  if (!analyzer) {
    analyzer = createAspectAnalyzer(lexicon);
    analyzers.set(lexicon, analyzer);
  }
  return analyzer;
}

export function analyzeReviews(reviews: readonly Review[], lexicon: Lexicon): ReviewAnalysis[] {
  const analyzer = analyzerFor(lexicon);
  return reviews.map((review) => {
    const sentences = splitSentences(review.text).map((tokens, index) => ({
      index,
      tokens,
      aspects: analyzer.analyzeTokenized(tokens, review.rating),
    }));
    return {
      review,
      sentences,
      aspects: combineSentenceOpinions(
        sentences.map((s) => s.aspects),
        review.rating,
      ),
    };
  });
}
