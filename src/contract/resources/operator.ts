/** Shapes of the emulator's operator routes (`/_emulator/*`, ours; docs/emulator.md). */
import { z } from 'zod';

export const ClockAdvanceBody = z.object({ ms: z.number().min(0) });
export const GenerationFaultBody = z.object({
  stage: z.enum(['tts', 'video']).nullable(),
  count: z.number().int().min(1).max(1000).optional(),
});
/** Inference plans (spec 8): each picks the organisation's rate limits. */
export const InferencePlans = ['free', 'pro', 'enterprise'] as const;
export const OrgPlanBody = z.object({ plan: z.enum(InferencePlans) });
export const OrgPlanParams = z.object({ orgId: z.string().min(1) });
export const RecordingsParams = z.object({ id: z.string().min(1) });
export const RecordingParams = z.object({ id: z.string().min(1), name: z.string().min(1) });
