/** The body of `avatar demo` (loaded only when it runs: the Voice, the emulator, ffmpeg). */
import { resolve } from 'node:path';
import { AvatarClient } from '../../client/client.js';
import { listGallery } from '../../contract/operations/core.js';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { chooseAudioOut } from '../live/audio-out.js';
import { endSentence, ndjsonLine, textLine, wrapLogLine, type Stamped } from '../live/live-log.js';
import { fitLines } from '../wrap.js';
import { LiveRunner } from '../live/live-runner.js';
import { micFromPcm } from '../live/mic-source.js';
import { mintLive, releaseSeat } from '../live/mint.js';
import { WaitLine } from '../live/wait-line.js';
import { checkWritable, exitCodeFor } from '../live/live-run.js';

export interface DemoOptions {
  persona?: string;
  question?: string;
  out?: string;
  inProcess?: boolean;
  play?: boolean;
}

export async function runDemo(cli: CliContext, o: DemoOptions): Promise<void> {
  const json = !!cli.globals().json;
  const out = cli.io.stdout;
  // On a terminal every line fits its width (README's first run is read at 80 columns).
  const width = out.isTTY ? (out.columns ?? 80) : undefined;
  const say = (line: string) => {
    if (!json) out.write((width ? fitLines(line, width - 1) : line) + '\n');
  };
  const file = checkWritable(resolve(cli.io.cwd, o.out ?? 'demo.mp4'), '--out');
  const { client, stop, where } = await serviceForDemo(cli, !!o.inProcess);
  const off = cli.onInterrupt(() => runner?.end('interrupted'));
  let runner: LiveRunner | undefined;
  try {
    say(`avatar demo: ${where}`);
    const question = o.question ?? 'Hello! What can you help me with?';
    const { defaultVoice } = await import('../../models/voice/index.js');
    const speech = await defaultVoice().synthesize(question);
    if (speech.sampleRate !== 16_000)
      throw new CliError(
        `the voice gave ${speech.sampleRate} Hz audio; the mic needs 16 kHz`,
        ExitCode.internal,
      );
    const pcm = Buffer.from(
      speech.samples.buffer,
      speech.samples.byteOffset,
      speech.samples.byteLength,
    );
    say(
      `question (synthesized, ${(speech.durationMs / 1000).toFixed(1)} s of 16 kHz speech): "${question}"`,
    );

    // The greeting and the turn are seconds of silence on screen: say what it waits for (Deliver 5).
    const wait = new WaitLine(json ? { write: () => true } : (cli.io.stderr as NodeJS.WriteStream));
    const t0 = performance.now();
    const minted = await mintLive(cli, client, { persona: o.persona ?? 'ava' });
    const mintMs = Math.round(performance.now() - t0);
    const play = o.play === true || (o.play === undefined && !json && !!out.isTTY);
    let recorded: Extract<Stamped, { event: 'recorded' }> | undefined;
    runner = new LiveRunner({
      minted,
      label: o.persona ?? 'ava',
      mic: micFromPcm(pcm, 'synthesized question'),
      audioOut: play ? chooseAudioOut(cli.io.env as NodeJS.ProcessEnv) : undefined,
      record: file,
      turns: 1,
      micAfterGreeting: true,
      origin: cli.globals().origin,
      release: () => releaseSeat(client, minted),
      onLog: (e) => {
        if (e.event === 'recorded') recorded = e;
        if (json) out.write(ndjsonLine(e) + '\n');
        else {
          const line = textLine(e);
          if (!line) return;
          wait.clear();
          out.write((width ? wrapLogLine(line, width) : line) + '\n');
          const next = waitingFor(e);
          if (next) wait.waiting(next);
        }
      },
    });
    const s = await runner.run().finally(() => wait.stop());
    if (s.reason !== 'turns_done') {
      throw new CliError(
        `the demo did not finish: ${endSentence(s.reason, s.detail)}`,
        exitCodeFor(s.reason) || ExitCode.internal,
      );
    }
    const ms = (v: number | undefined) =>
      v === undefined ? 'n/a' : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${v} ms`;
    const afterQuestion =
      s.firstTurnMs === undefined || s.micStartMs === undefined
        ? undefined
        : Math.max(0, s.firstTurnMs - s.micStartMs - speech.durationMs);
    const timings = {
      mint_ms: mintMs,
      connect_ms: s.connectMs,
      first_media_ms: s.firstMediaMs,
      turn_ms: s.firstTurnMs,
      turn_after_question_ms: afterQuestion,
    };
    if (json)
      out.write(
        JSON.stringify({
          event: 'demo',
          ok: true,
          video: recorded?.path,
          video_bytes: recorded?.bytes,
          ...timings,
        }) + '\n',
      );
    else {
      say(
        `\ntimings: mint ${ms(mintMs)} · connect ${ms(s.connectMs)} · first media ${ms(s.firstMediaMs)} after the connect began · turn ${ms(afterQuestion)} after the question ended (${ms(s.firstTurnMs)} after the connect began)`,
      );
      if (recorded?.bytes)
        say(
          `video: ${recorded.path} (${(recorded.bytes / 1024).toFixed(0)} KB); play it with any player, e.g. ffplay ${o.out ?? 'demo.mp4'}`,
        );
      say(
        `next: avatar sessions live --persona ${o.persona ?? 'ava'}   (talk yourself: mic, --mic-file or typed text)`,
      );
    }
    if (!recorded?.bytes)
      throw new CliError(`no video was received, so ${file} was not written`, ExitCode.internal);
  } finally {
    off();
    await stop();
  }
}

/** What the demo waits for after this event (shown after a second of nothing new). */
function waitingFor(e: Stamped): string | undefined {
  switch (e.event) {
    case 'minted':
      return 'connecting to the edge';
    case 'turn':
      return e.greeting
        ? 'the avatar is greeting you; the question follows'
        : 'the avatar is speaking its reply';
    case 'mic':
      return 'streaming the question, waiting for its transcript';
    case 'recorded':
    case 'ended':
      return undefined;
    default:
      return 'waiting for the edge';
  }
}

/**
 * The service the CLI is configured for when it answers, else a throwaway in-process
 * emulator. A service named explicitly (--base-url, AVATAR_BASE_URL, a profile) that fails
 * is an error: a demo that quietly ran elsewhere would say the named service works.
 */
async function serviceForDemo(
  cli: CliContext,
  inProcess: boolean,
): Promise<{ client: AvatarClient; stop: () => Promise<void>; where: string }> {
  if (!inProcess) {
    let conn: ReturnType<CliContext['connection']> | undefined;
    try {
      conn = cli.connection();
    } catch {
      /* none configured: start one */
    }
    if (conn) {
      const explicit =
        conn.source === 'flags' ||
        conn.source === 'environment' ||
        conn.source.startsWith('profile ');
      const client = cli.client();
      try {
        await client.call(listGallery);
        return {
          client,
          stop: async () => undefined,
          where: `using the service at ${conn.baseUrl} (${conn.source})`,
        };
      } catch (e) {
        await client.close().catch(() => undefined);
        if (explicit) throw explicitFailure(e, conn.baseUrl, conn.source);
        /* a local emulator that went away: start one */
      }
    }
  }
  const { startEmulator } = await import('../../emulator/start.js');
  const emu = await startEmulator({ port: 0, host: '127.0.0.1', inMemory: true });
  const client = new AvatarClient({ baseUrl: emu.baseUrl, apiKey: emu.keys.secretKey });
  return {
    client,
    where: `started an in-process emulator at ${emu.baseUrl} (stops when the demo ends)`,
    stop: async () => {
      await client.close();
      await emu.stop();
    },
  };
}

/** The named service did not answer the gallery: say which and how to demo without it. */
function explicitFailure(e: unknown, baseUrl: string, source: string): unknown {
  const code =
    (e as NodeJS.ErrnoException).code ?? (e as { cause?: NodeJS.ErrnoException }).cause?.code;
  if (
    !code ||
    !/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|UND_ERR/.test(
      code,
    )
  )
    return e;
  const from =
    source === 'flags' ? '--base-url' : source === 'environment' ? 'AVATAR_BASE_URL' : source;
  return new CliError(
    `cannot reach ${baseUrl} (${code}), the service named by ${from}.\n  start it, or run the demo on a throwaway emulator: avatar demo --in-process`,
    ExitCode.network,
  );
}
