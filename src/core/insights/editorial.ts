// The editorial parts of the insights dataset, written by the owner in `content/insights/`.
import { z } from 'zod';

export const FaqSchema = z.array(
  z.object({ question: z.string().trim().min(1), answer: z.string().trim().min(1) }).strict(),
);

export const SummarySchema = z.object({ title: z.string(), text: z.string() }).nullable();

export const InsightsEditorialSchema = z.object({ faq: FaqSchema, summary: SummarySchema });

export type InsightsEditorial = z.infer<typeof InsightsEditorialSchema>;
