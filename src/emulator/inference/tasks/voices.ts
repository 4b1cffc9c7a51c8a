import type { Voice } from '../../../models/voice.js';
import { own } from '../../../contract/own.js';

/**
 * OpenAI's voice names onto the Voice's real base voices (the flite voices slt, rms,
 * kal16, awb, kal), so existing client code works; a base voice id is accepted as is.
 */
const OPENAI_VOICES: Record<string, { gender: 'female' | 'male'; prefer?: string }> = {
  alloy: { gender: 'female' },
  ash: { gender: 'male' },
  ballad: { gender: 'male', prefer: 'awb' },
  coral: { gender: 'female' },
  echo: { gender: 'male', prefer: 'rms' },
  fable: { gender: 'male', prefer: 'awb' },
  onyx: { gender: 'male', prefer: 'kal16' },
  nova: { gender: 'female' },
  sage: { gender: 'female' },
  shimmer: { gender: 'female' },
  verse: { gender: 'male', prefer: 'rms' },
  marin: { gender: 'female' },
  cedar: { gender: 'male' },
};

export function pickVoice(voice: Voice, name: string | undefined): string | null {
  if (!name) return voice.voices[0]?.id ?? null;
  if (voice.voices.some((v) => v.id === name)) return name;
  const o = own(OPENAI_VOICES, name.toLowerCase());
  if (!o) return null;
  if (o.prefer && voice.voices.some((v) => v.id === o.prefer)) return o.prefer;
  return voice.voices.find((v) => v.gender === o.gender)?.id ?? voice.voices[0]?.id ?? null;
}

export const openAiVoiceNames = Object.keys(OPENAI_VOICES);
