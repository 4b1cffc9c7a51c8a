/**
 * One-shot generations (spec 4.10): `avatar speak`, `avatar design`, `avatar prebuild`.
 * speak shows its progress on stderr (upload, then render with elapsed time) and the
 * timing headers after; design decodes the WAV; prebuild prints each box's status.
 * (The generated `avatar generations speak|design|prebuild` stay for raw bodies.)
 */
import { statSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { isApiResponseError } from '../errors.js';
import type { SpeakRequest } from '../../contract/resources/generations.js';
import type { CliContext, CommandModule } from '../context.js';
import { addCommand, defineCommand, type OptionSpec, type OptionsOf } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { renderTable } from '../output.js';
import { mediaArg } from './media-arg.js';
import { progressBar } from '../avatars/upload.js';

const number =
  (flag: string, integer = false) =>
  (v: string) => {
    const n = v.trim() === '' ? NaN : Number(v);
    if (!Number.isFinite(n) || (integer && !Number.isInteger(n)))
      throw new CliError(
        `${flag} takes ${integer ? 'an integer' : 'a number'}, got ${v}`,
        ExitCode.usage,
      );
    return n;
  };

/** The HTTP calls, loaded when a command runs (help loads no client; src/cli/command-manifest.ts). */
const gen = () => import('../../client/generations.js');

/** Before sending: a render written nowhere is a render lost (speak can take seconds). */
function checkOut(cli: CliContext, file: string): void {
  const folder = dirname(resolve(cli.io.cwd, file));
  let ok = false;
  try {
    ok = statSync(folder).isDirectory();
  } catch {
    // missing: said below
  }
  if (!ok)
    throw new CliError(
      `-o: no folder ${relative(cli.io.cwd, folder) || folder} to write ${file} in`,
      ExitCode.usage,
    );
}

function writeOut(cli: CliContext, file: string, bytes: Buffer): void {
  try {
    writeFileSync(resolve(cli.io.cwd, file), bytes);
  } catch (e) {
    throw new CliError(`cannot write ${file}: ${(e as Error).message}`, ExitCode.usage);
  }
}

/** "rendering... 3.2 s" on a terminal, ticking; one line otherwise. Returns a stop function. */
function renderProgress(cli: CliContext): () => void {
  if (cli.globals().json) return () => {};
  const started = Date.now();
  if (cli.io.stderr.isTTY !== true) {
    cli.io.stderr.write('rendering...\n');
    return () => {};
  }
  const frames = ['|', '/', '-', '\\'];
  let i = 0;
  const draw = () =>
    cli.io.stderr.write(
      `\r${frames[i++ % 4]} rendering... ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  draw();
  const timer = setInterval(draw, 100);
  return () => {
    clearInterval(timer);
    cli.io.stderr.write('\r\x1b[K');
  };
}

/** `avatar speak`'s options (its type is inferred: SpeakFlags). */
const speakOptions = {
  text: { flags: '--text <text>', description: 'words to say', required: true },
  image: {
    flags: '--image <file|url>',
    description: 'face image (.jpg, .png, .webp) or an http(s) URL',
    required: true,
  },
  voice: {
    flags: '--voice <file|url>',
    description:
      'voice reference (.wav, .mp3, .m4a, .flac, .ogg; 3 to 10 s is ideal) or an http(s) URL',
    required: true,
  },
  out: { flags: '-o, --out <file>', description: 'where to write the MP4', required: true },
  voiceText: { flags: '--voice-text <text>', description: 'transcript of the voice reference' },
  endFrame: {
    flags: '--end-frame <file|url>',
    description: 'face of the last frame (defaults to --image)',
  },
  prompt: { flags: '--prompt <text>', description: 'scene/style prompt' },
  width: {
    flags: '--width <px>',
    description: 'video width (default 352)',
    parse: number('--width', true),
  },
  height: {
    flags: '--height <px>',
    description: 'video height (default 480)',
    parse: number('--height', true),
  },
  frameRate: {
    flags: '--frame-rate <fps>',
    description: 'frames per second (default 24)',
    parse: number('--frame-rate', true),
  },
  cacheUrls: {
    flags: '--cache-urls',
    description: 'treat media URLs as immutable cache keys (immutable_url_for_caching)',
  },
} as const satisfies Record<string, OptionSpec>;

type SpeakFlags = OptionsOf<typeof speakOptions>;

async function runSpeak(cli: CliContext, o: SpeakFlags): Promise<void> {
  checkOut(cli, o.out);
  const image = await mediaArg(cli, '--image', o.image, 'image');
  const voice = await mediaArg(cli, '--voice', o.voice, 'audio');
  const end = o.endFrame ? await mediaArg(cli, '--end-frame', o.endFrame, 'image') : null;
  const body: SpeakRequest = { text: o.text, image: image.ref, voice_ref: voice.ref };
  const ws = cli.connection().workspaceId;
  if (ws) body.workspace_id = ws;
  if (o.voiceText !== undefined) body.voice_text = o.voiceText;
  if (end) body.end_frame = end.ref;
  if (o.prompt !== undefined) body.prompt = o.prompt;
  if (o.width !== undefined) body.width = o.width;
  if (o.height !== undefined) body.height = o.height;
  if (o.frameRate !== undefined) body.frame_rate = o.frameRate;
  if (o.cacheUrls) body.immutable_url_for_caching = true;
  const bar = progressBar(cli, 'request');
  const progress: { stop: (() => void) | null } = { stop: null };
  const stopProgress = () => {
    progress.stop?.();
    progress.stop = null;
  };
  try {
    const { speak } = await gen();
    const answer = await speak(cli.client(), body, {
      onUploadProgress: (sent, total) => {
        bar(sent, total);
        if (sent >= total && !progress.stop) progress.stop = renderProgress(cli);
      },
    }).catch((e: unknown) => {
      // The service says "pass workspace_id"; on the command line that is a global flag.
      if (isApiResponseError(e) && e.code === 'workspace_id_required') {
        throw new CliError(
          'workspace_id_required (HTTP 400): this key is not workspace-bound: pass --workspace <id> (or set AVATAR_WORKSPACE_ID)',
          ExitCode.apiClientError,
        );
      }
      throw e;
    });
    stopProgress();
    writeOut(cli, o.out, answer.video);
    const t = answer.timings;
    cli.print(
      {
        file: o.out,
        bytes: answer.video.length,
        duration_s: t.durationS,
        clone_ms: t.cloneMs,
        gen_ms: t.genMs,
        total_ms: t.totalMs,
        box_id: t.boxId,
      },
      () =>
        `wrote ${o.out} (${(answer.video.length / 1024).toFixed(0)} KB, ${t.durationS ?? '?'} s of video)\n` +
        `clone ${t.cloneMs ?? '?'} ms · gen ${t.genMs ?? '?'} ms · total ${t.totalMs ?? '?'} ms · box ${t.boxId ?? '?'}`,
    );
  } finally {
    stopProgress();
  }
}

const speakCommand = defineCommand({
  name: 'speak',
  summary: 'text + face + voice reference -> a lip-synced MP4 (POST /api/v1/speak)',
  options: speakOptions,
  run: ({ options: o, cli }) => runSpeak(cli, o),
});

const designCommand = defineCommand({
  name: 'design',
  summary: 'a voice described in words says the text -> 24 kHz WAV (POST /api/v1/design)',
  options: {
    description: {
      flags: '--description <text>',
      description:
        'the voice: gender, age, pitch, pace, accent (e.g. "a calm old man with a deep voice")',
      required: true,
    },
    text: { flags: '--text <text>', description: 'what the voice says', required: true },
    out: { flags: '-o, --out <file>', description: 'where to write the WAV', required: true },
    temperature: {
      flags: '--temperature <n>',
      description: 'default 1.5',
      parse: number('--temperature'),
    },
    topP: { flags: '--top-p <n>', description: 'default 0.6', parse: number('--top-p') },
    topK: { flags: '--top-k <n>', description: 'default 50', parse: number('--top-k', true) },
    repetitionPenalty: {
      flags: '--repetition-penalty <n>',
      description: 'default 1.1',
      parse: number('--repetition-penalty'),
    },
    maxNewTokens: {
      flags: '--max-new-tokens <n>',
      description: 'default 4096 (20 ms of audio each)',
      parse: number('--max-new-tokens', true),
    },
  },
  async run({ options: o, cli }) {
    checkOut(cli, o.out);
    const { design } = await gen();
    const a = await design(cli.client(), {
      description: o.description,
      text: o.text,
      temperature: o.temperature,
      top_p: o.topP,
      top_k: o.topK,
      repetition_penalty: o.repetitionPenalty,
      max_new_tokens: o.maxNewTokens,
    });
    writeOut(cli, o.out, a.wav);
    cli.print(
      {
        file: o.out,
        bytes: a.wav.length,
        sample_rate: a.sampleRate,
        duration_seconds: a.durationSeconds,
        gen_ms: a.genMs,
        rtf: a.rtf,
      },
      () =>
        `wrote ${o.out} (${a.durationSeconds} s at ${a.sampleRate} Hz) · gen ${a.genMs} ms · rtf ${a.rtf ?? 'n/a'}`,
    );
  },
});

const prebuildCommand = defineCommand({
  name: 'prebuild',
  summary:
    'warm the idle-motion cache of an avatar version on every live box (POST /api/v1/prebuild)',
  args: { versionId: { usage: '<versionId>', description: 'avatar version id (avatar_ref)' } },
  async run({ args: { versionId }, cli }) {
    const { prebuild } = await gen();
    const a = await prebuild(cli.client(), versionId);
    cli.print(
      a,
      () =>
        `${renderTable(a.boxes)}\n${a.ok ? 'ok: at least one box has it or is building it' : 'no box took it (see statuses)'}`,
    );
  },
});

export const generationCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    addCommand(program, speakCommand, cli);
    addCommand(program, designCommand, cli);
    addCommand(program, prebuildCommand, cli);
  },
};
