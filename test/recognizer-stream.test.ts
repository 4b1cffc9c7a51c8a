/**
 * Streaming recognition with the real pocketsphinx (issue 15 item 2): one long-lived
 * process hears the utterances of a session as they come (audio fed faster than real time,
 * frame by frame), its partials come from the same stream, and each utterance gets only its
 * own words. CI installs pocketsphinx; without it these are skipped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StreamBehind, type RecognitionStream } from '../src/models/recognizer.js';
import { PocketsphinxRecognizer, probePocketsphinx } from '../src/models/recognizer/index.js';
import { concat, frames, silence, speak } from './helpers/speech.js';

const probe = probePocketsphinx();
const opened: RecognitionStream[] = [];
afterEach(() => opened.splice(0).forEach((s) => s.close()));

/** Feeds an utterance the way the mic stage does: its first 500 ms at begin, then frame by frame. */
function utter(stream: RecognitionStream, audio: Int16Array) {
  const fs = frames(audio);
  stream.begin(concat(...fs.slice(0, 5)));
  for (const f of fs.slice(5))
    stream.push(
      f,
      f.some((x) => Math.abs(x) > 500),
    );
  return stream.end();
}

describe.skipIf(!probe.binary || !probe.modelDir)('pocketsphinx stream', () => {
  const rec = () => new PocketsphinxRecognizer({ binary: probe.binary! });

  it('recognises one utterance after another on one process, each with its own words', async () => {
    const stream = rec().stream({ lang: 'en-US' })!;
    opened.push(stream);
    const first = await utter(
      stream,
      concat(silence(300), await speak('What is your favourite food?'), silence(700)),
    );
    expect(first.recognised).toBe(true);
    expect(first.text).toMatch(/food/);
    const second = await utter(
      stream,
      concat(silence(300), await speak('Where did you grow up?'), silence(700)),
    );
    expect(second.text).toMatch(/grow/);
    expect(second.text).not.toMatch(/food/);
  });

  it('sends partials from the same stream while the utterance goes on', async () => {
    const stream = rec().stream()!;
    opened.push(stream);
    const partials: string[] = [];
    stream.onPartial = (t) => partials.push(t);
    const fs = frames(concat(silence(300), await speak('Hello there.'), silence(900)));
    stream.begin(concat(...fs.slice(0, 5)));
    for (const f of fs.slice(5))
      stream.push(
        f,
        f.some((x) => Math.abs(x) > 500),
      );
    await new Promise<void>((resolve) => {
      const t = setInterval(() => partials.length && (clearInterval(t), resolve()), 10);
    });
    expect(partials[0]).toMatch(/hello/);
    for (const f of frames(concat(await speak('What is your favourite food?'), silence(700))))
      stream.push(
        f,
        f.some((x) => Math.abs(x) > 500),
      );
    const r = await stream.end();
    expect(r.text).toMatch(/hello.*food/);
  });

  it('leaves an utterance it heard no speech in to the batch recogniser, and goes on; is not offered for another language', async () => {
    const stream = rec().stream()!;
    opened.push(stream);
    await expect(utter(stream, silence(1500))).rejects.toBeInstanceOf(StreamBehind);
    const next = await utter(
      stream,
      concat(silence(300), await speak('Where did you grow up?'), silence(700)),
    );
    expect(next.text).toMatch(/grow/);
    expect(rec().stream({ lang: 'fr' })).toBeNull();
  });
});
