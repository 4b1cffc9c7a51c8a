/**
 * What the avatar actually said before a barge-in (issue 8: "the stored reply is what was
 * actually said"). Given the reply text, the voice's word timings and how much of the speech
 * was played, it keeps the words whose middle was played, cut in the reply's own text (its
 * spelling and punctuation, not the synthesizer's). When the voice reports no word timings,
 * words are assumed evenly spread over the speech. When the synthesizer spoke a different
 * number of words than the text has ("10" read as "ten"), the count is scaled.
 */
import type { SpeechMark } from '../../models/voice.js';

export interface PlayedText {
  text: string;
  /** false when the reply was cut short. */
  complete: boolean;
}

const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });

export function playedText(
  reply: string,
  playedMs: number,
  speech: { durationMs: number; words?: SpeechMark[] },
): PlayedText {
  const ends: number[] = []; // end offset (in `reply`) of each word
  for (const w of wordSegmenter.segment(reply))
    if (w.isWordLike) ends.push(w.index + w.segment.length);
  if (ends.length === 0 || playedMs >= speech.durationMs) return { text: reply, complete: true };
  let said: number;
  const marks = speech.words?.filter((w) => /[\p{L}\p{N}]/u.test(w.text));
  if (marks && marks.length) {
    const heard = marks.filter((w) => (w.startMs + w.endMs) / 2 <= playedMs).length;
    if (heard === marks.length) return { text: reply, complete: true };
    said = Math.floor((heard * ends.length) / marks.length);
  } else {
    said = Math.floor((Math.max(0, playedMs) / speech.durationMs) * ends.length);
  }
  if (said >= ends.length) return { text: reply, complete: true };
  if (said <= 0) return { text: '', complete: false };
  // Keep punctuation glued to the last word ("Lisbon," / "name?"), not the next word.
  let end = ends[said - 1];
  while (end < reply.length && /[^\s\p{L}\p{N}]/u.test(reply[end])) end++;
  return { text: reply.slice(0, end), complete: false };
}
