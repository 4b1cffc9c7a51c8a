/**
 * The honest fallback (issue 8: "when nothing on the machine can recognise speech, the
 * turn says so in its text instead of inventing words"). `recognised` is false and the
 * text names exactly what to install. The text is bracketed so a UI can tell it from a
 * transcript.
 */
import type { Recognition, Recognizer } from '../recognizer.js';

export const INSTALL_HINT = 'apt-get install pocketsphinx pocketsphinx-en-us';

export function notRecognisedText(
  missing: readonly string[] = ['pocketsphinx', 'pocketsphinx-en-us'],
): string {
  const install = missing.length ? `apt-get install ${missing.join(' ')}` : INSTALL_HINT;
  return `[not recognised: no speech recogniser is installed on this machine. Install one with "${install}", or start with --asr-url pointing at an OpenAI-compatible /v1 API]`;
}

/**
 * What a spoken turn says when a working recogniser heard nothing usable in speech the VAD
 * found (a hum, a cough, mumbling): pocketsphinx and `--asr-url` servers answer `""` then,
 * which is right for `/audio/transcriptions` but would make an empty turn (docs/edge.md).
 */
export function nothingHeardText(recognizer: string): string {
  const who = recognizer === 'openai' ? 'the --asr-url recogniser' : recognizer;
  return `[speech not recognised: ${who} heard no words in it]`;
}

export class UnavailableRecognizer implements Recognizer {
  readonly name = 'none';
  readonly available = false;
  private readonly text: string;

  /** `missing`: the Debian packages that would make pocketsphinx work here. */
  constructor(missing?: readonly string[]) {
    this.text = notRecognisedText(missing);
  }

  async transcribe(
    _samples: Int16Array,
    opts: { signal?: AbortSignal } = {},
  ): Promise<Recognition> {
    opts.signal?.throwIfAborted();
    return { text: this.text, recognised: false };
  }
}
