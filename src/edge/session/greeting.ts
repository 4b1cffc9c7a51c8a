/**
 * The greeting (spec 2 `greeting_enabled`): the first generated turn, spoken without a
 * user message. The brain writes it from this instruction, so an LLM greets in character
 * and the local brain answers from what the session froze.
 */
import type { SessionSnapshot } from './snapshot.js';

export function greetingPrompt(s: SessionSnapshot, language: string): string {
  const who = s.avatar.persona ? ` as ${s.avatar.persona}` : '';
  return `The user just joined the conversation. Greet them${who} in one short sentence, in ${language}.`;
}
