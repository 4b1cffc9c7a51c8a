/** Limits of spec section 8, as numbers the emulator, validators and CLI share. */
export const Limits = {
  sessionTokenTtlSeconds: 60,
  sessionCapDefaultSeconds: 300,
  sessionCapMinSeconds: 60,
  sessionCapMaxSeconds: 3600,
  contextSystemPromptChars: 40_960,
  contextBackstoryChars: 16_384,
  contextMemoryBlockChars: 4_096,
  contextHistoryMessages: 40,
  contextHistoryBytes: 16_384,
  extraPromptChars: 2_048,
  extrasCombinedChars: 3_072,
  configBytes: 1_024,
  agentBytes: 1_024,
  toolsPlusContextBytes: 128 * 1024,
  toolsPerSession: 16,
  mcpServersPerSession: 4,
  toolDescriptionChars: 300,
  toolSchemaBytes: 2_048,
  toolSchemaDepth: 4,
  toolTimeoutMinMs: 1_000,
  toolTimeoutMaxMs: 25_000,
  toolTimeoutDefaultMs: 8_000,
  toolHoldSeconds: 30,
  maxCallsDefault: 20,
  maxCallsMin: 1,
  maxCallsMax: 100,
  toolCooldownSeconds: 20,
  mcpResultBytes: 8 * 1024,
  mcpToolListCacheSeconds: 600,
  toolStructuredChars: 800,
  faceImageBytes: 10 * 1024 * 1024,
  voiceSampleBytes: 25 * 1024 * 1024,
  voiceSampleMinSeconds: 5,
  voiceSampleMaxSeconds: 30,
  micSampleRate: 16_000,
  micFrameSamples: 1_600,
  queueRetryAfterSeconds: 3,
  claimWindowSeconds: 45,
  waiterIdleSeconds: 12,
  notifyIdleSeconds: 300,
  queueLapsesToDrop: 2,
  queuePositionWebhookIntervalSeconds: 30,
  concurrencyRetryAfterSeconds: 15,
  builtinImageUrlSeconds: 3_600,
  transcriptRetentionDays: 30,
  captureRetentionDays: 30,
  compatBSyncSeconds: 120,
  compatBBatchIds: 50,
  /** Ours (spec: not shown): largest JSON body any control-plane route accepts. */
  jsonBodyBytes: 1024 * 1024,
  /** A state document for POST /_emulator/state/import (every table and blob, base64). */
  stateDocumentBytes: 64 * 1024 * 1024,
} as const;

/** Inference rate limits per organisation plan (spec 8), per minute. */
export const InferenceRateLimits = {
  free: { apiRequests: 60, jobSubmissions: 10 },
  pro: { apiRequests: 600, jobSubmissions: 100 },
  enterprise: { apiRequests: 6_000, jobSubmissions: 1_000 },
} as const;

/**
 * Characters of a text as the limits count them: Unicode code points (spec 8 says "chars";
 * JSON Schema's `maxLength` counts the same way), not UTF-16 units, so an emoji is one
 * character, not two. A lone surrogate counts as one.
 */
export function charCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
