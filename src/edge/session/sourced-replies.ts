/**
 * Replies made without asking the brain, in the brain's own shape (a stream of deltas and
 * the usage): a fixed line, a reply that fails as a brain that is down, a reply led by a line.
 */
import type { Brain } from '../../models/index.js';

export type BrainReply = ReturnType<Brain['reply']>;

const NO_USAGE = { promptTokens: 0, completionTokens: 0 };

/** A reply that is this text. */
export function fixedReply(text: string): BrainReply {
  return {
    deltas: (async function* () {
      yield text;
    })(),
    usage: Promise.resolve(NO_USAGE),
  };
}

/** A reply that says `lines` (none: nothing) and then fails with `message`, as an upstream that is down or cut off. */
export function failedReply(message: string, lines: readonly string[] = []): BrainReply {
  const err = new Error(message);
  return {
    deltas: (async function* () {
      if (lines.length > 0) yield lines.join(' ');
      throw err;
    })(),
    usage: Promise.resolve(NO_USAGE),
  };
}

/** A reply that starts with `line` (a coloured reply, or one a gate leads). */
export function startingWith(line: string, out: BrainReply): BrainReply {
  return {
    deltas: (async function* () {
      yield `${line} `;
      yield* out.deltas;
    })(),
    usage: out.usage,
  };
}
