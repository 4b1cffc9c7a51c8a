/**
 * Voice design (spec 4.10 `POST /api/v1/design`): a description in words becomes TTS
 * voice parameters, deterministically (the same description always gives the same voice).
 * Words are matched whole, case-insensitively:
 *
 * - gender: female words pick the female base voice (`slt`), male words a male one (`rms`);
 *   neither: `slt`.
 * - accent: Scottish/Scots/Glasgow/Edinburgh pick `awb` (the one non-US voice);
 *   British/English/UK words pick `awb` too (closest available); others have no voice here.
 * - age: child words raise pitch 35% and pace 10%; teen words raise pitch 15%; old words
 *   lower pitch 12% and slow the pace 15%.
 * - pitch: high words +20%, low/deep words -20% (stacked with age).
 * - pace: fast words x1.25, slow words x0.8.
 */
import type { VoiceShape } from '../../models/voice.js';

const has = (words: Set<string>, list: readonly string[]) => list.some((w) => words.has(w));

const FEMALE = [
  'female',
  'woman',
  'women',
  'girl',
  'lady',
  'feminine',
  'she',
  'her',
  'mother',
  'grandmother',
  'actress',
];
const MALE = [
  'male',
  'man',
  'men',
  'boy',
  'guy',
  'gentleman',
  'masculine',
  'he',
  'his',
  'father',
  'grandfather',
  'actor',
];
const SCOTTISH = ['scottish', 'scots', 'scot', 'glasgow', 'edinburgh', 'highland'];
const BRITISH = ['british', 'english', 'uk', 'london', 'british-accent', 'rp'];
const CHILD = ['child', 'kid', 'little', 'toddler', 'childlike', 'boy', 'girl'];
const TEEN = ['teen', 'teenage', 'teenager', 'young', 'youthful'];
const OLD = ['old', 'elderly', 'aged', 'senior', 'grandmother', 'grandfather', 'ancient', 'older'];
const HIGH = ['high', 'high-pitched', 'squeaky', 'bright', 'shrill', 'soprano'];
const LOW = ['low', 'deep', 'low-pitched', 'bass', 'baritone', 'gravelly', 'husky'];
const FAST = ['fast', 'quick', 'rapid', 'energetic', 'excited', 'hurried', 'brisk'];
const SLOW = ['slow', 'calm', 'measured', 'relaxed', 'deliberate', 'soothing', 'sleepy'];

export interface DesignedVoice {
  shape: Required<Pick<VoiceShape, 'voice' | 'pitchHz' | 'rate'>>;
  /** The description words that took effect, by trait (docs; tests). */
  matched: Record<string, string[]>;
}

/** Base pitch of each base voice (its natural median, Hz). */
const BASE_HZ: Record<string, number> = { slt: 175, rms: 105, awb: 120 };

export function designVoice(description: string): DesignedVoice {
  const words = new Set(
    description
      .toLowerCase()
      .split(/[^a-z-]+/)
      .filter(Boolean),
  );
  const pick = (list: readonly string[]) => list.filter((w) => words.has(w));
  const male = has(words, MALE) && !has(words, FEMALE);
  const scottish = has(words, SCOTTISH) || has(words, BRITISH);
  const voice = scottish && !has(words, FEMALE) ? 'awb' : male ? 'rms' : 'slt';
  let pitch = 1;
  let rate = 1;
  // "girl"/"boy" are children only with no adult word alongside ("a girl's voice" vs "a young woman").
  const child =
    has(words, ['child', 'kid', 'little', 'toddler', 'childlike']) ||
    (has(words, ['girl', 'boy']) && !has(words, ['woman', 'man', 'lady', 'gentleman']));
  if (child) {
    pitch *= 1.35;
    rate *= 1.1;
  } else if (has(words, TEEN)) pitch *= 1.15;
  if (has(words, OLD)) {
    pitch *= 0.88;
    rate *= 0.85;
  }
  if (has(words, HIGH)) pitch *= 1.2;
  if (has(words, LOW)) pitch *= 0.8;
  if (has(words, FAST)) rate *= 1.25;
  if (has(words, SLOW)) rate *= 0.8;
  return {
    shape: {
      voice,
      pitchHz: Math.round(BASE_HZ[voice]! * pitch),
      rate: Math.round(rate * 100) / 100,
    },
    matched: {
      gender: pick([...FEMALE, ...MALE]),
      accent: pick([...SCOTTISH, ...BRITISH]),
      age: pick([...CHILD, ...TEEN, ...OLD]),
      pitch: pick([...HIGH, ...LOW]),
      pace: pick([...FAST, ...SLOW]),
    },
  };
}
