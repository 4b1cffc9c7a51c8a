import { accessSync, constants, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, resolve } from 'node:path';
/**
 * The body of `avatar sessions live`, loaded only when the command runs (ink, React and the
 * audio pieces stay out of `avatar --help`).
 */
import type { CliContext } from '../context.js';
import { CliError, ExitCode, type ExitCodeValue } from '../exit-codes.js';
import { chooseAudioOut, missingAudioOutMessage, type AudioOutChoice } from './audio-out.js';
import {
  endSentence,
  ndjsonLine,
  textLine,
  wrapLogLine,
  type LiveEndReason,
  type Stamped,
} from './live-log.js';
import { coverLinesOf } from './follow-ups.js';
import { LiveRunner, type LiveSummary } from './live-runner.js';
import {
  micAvailable,
  micFromDevice,
  micFromFile,
  MissingPieceError,
  type MicSource,
} from './mic-source.js';
import { mintLive, releaseSeat } from './mint.js';
import { SessionRecorder } from './session-file.js';
import { installHint } from './system-pieces.js';
import { mintBodyFromOptions } from '../sessions/sessions.js';

type Mode = 'ink' | 'lines' | 'ndjson';

export async function runLive(cli: CliContext, opts: Record<string, unknown>): Promise<void> {
  const json = !!cli.globals().json;
  const stdout = cli.io.stdout;
  const stdin = (cli.io.stdin ?? process.stdin) as NodeJS.ReadStream;
  const env = cli.io.env as NodeJS.ProcessEnv;
  const mode: Mode = json ? 'ndjson' : stdout.isTTY && stdin.isTTY && !inCi(env) ? 'ink' : 'lines';

  const protocol = opts.protocol === undefined ? 1 : Number(opts.protocol);
  if (protocol !== 1 && protocol !== 2)
    throw new CliError(`--protocol must be 1 or 2 (got ${String(opts.protocol)})`, ExitCode.usage);
  const turns = parsePositiveInt('--turns', opts.turns);
  const body = await mintBodyFromOptions(opts, cli);
  if (protocol === 2) body.protocol_versions = [2];
  if (body.persona === undefined && body.avatar_id === undefined && body.avatar_ref === undefined) {
    throw new CliError(
      'say who to talk to: --persona <key> (avatar gallery list) or --avatar-id <uuid>',
      ExitCode.usage,
    );
  }
  const notices: string[] = [];

  // Input: a file, the mic (explicit, or the default on a terminal), or typed text only.
  let mic: MicSource | undefined;
  if (typeof opts.micFile === 'string') {
    if (opts.mic === true) throw new CliError('--mic and --mic-file: choose one', ExitCode.usage);
    mic = await micFromFile(opts.micFile).catch((e: Error) => {
      throw new CliError(e.message, ExitCode.usage);
    });
  } else if (opts.mic === true || (opts.mic === undefined && mode === 'ink')) {
    try {
      mic = micFromDevice(env);
    } catch (e) {
      if (!(e instanceof MissingPieceError)) throw e;
      if (opts.mic === true) throw new CliError(e.message, ExitCode.usage);
      if (!micAvailable(env))
        notices.push(
          `no microphone recorder: type your messages (for the mic, ${installHint('recorder')})`,
        );
    }
  }

  // Output: play (explicit, or the default on a terminal) and/or record.
  let audioOut: AudioOutChoice | undefined;
  if (opts.play === true || (opts.play === undefined && mode === 'ink')) {
    audioOut = chooseAudioOut(env);
    if (!audioOut) {
      if (opts.play === true) throw new CliError(missingAudioOutMessage(), ExitCode.usage);
      notices.push(missingAudioOutMessage());
    }
  }
  const record =
    typeof opts.record === 'string'
      ? checkWritable(resolve(cli.io.cwd, opts.record), '--record')
      : undefined;

  const saveTo =
    typeof opts.saveSession === 'string'
      ? checkWritable(resolve(cli.io.cwd, opts.saveSession), '--save-session')
      : undefined;
  const lang =
    typeof opts.lang === 'string'
      ? opts.lang
      : typeof body.response_language === 'string'
        ? body.response_language
        : 'en';
  const saver = saveTo ? new SessionRecorder(body, protocol, lang) : undefined;

  const client = cli.client();
  const minted = await mintLive(cli, client, body);
  const label = String(body.persona ?? body.avatar_id ?? body.avatar_ref);
  const write = (e: Stamped) => {
    saver?.event(e);
    if (mode === 'ndjson') stdout.write(ndjsonLine(e) + '\n');
    else if (mode === 'lines') {
      const line = textLine(e);
      // A terminal in the line view (CI) gets them wrapped to its width; a pipe, whole.
      if (line)
        stdout.write((stdout.isTTY ? wrapLogLine(line, stdout.columns ?? 80) : line) + '\n');
    }
  };
  const runner = new LiveRunner({
    minted,
    label,
    mic,
    // A file is a user who waits: it starts once the greeting has been spoken, as `demo` does
    // (streamed at once, the question would cut the greeting off before a word of it).
    micAfterGreeting: typeof opts.micFile === 'string',
    audioOut,
    record,
    headphones: opts.headphones === true,
    // Without the ink view nobody can type instead of a mic that failed: end, free the seat.
    endOnMicFailure: mode !== 'ink',
    turns,
    say: Array.isArray(opts.say) ? opts.say.map(String) : undefined,
    lang,
    ...(saver ? { onMicFrame: (f: Uint8Array, t: number) => saver.micFrame(f, t) } : {}),
    // The global --origin goes to the edge too: the box checks it against domain_allowlist (docs/edge.md).
    origin: cli.globals().origin,
    release: () => releaseSeat(client, minted),
    onLog: write,
    endAfterMicFile: mic?.kind === 'file' && turns === undefined,
    // A slow tool's filler is its cover_line: not the follow-up pacing waits for.
    coverLines: coverLinesOf(inlineTools(body)),
  });
  const says = Array.isArray(opts.say) ? opts.say.length : 0;
  // Off the view with no input at all, the session would only listen until the cap: say so.
  const silent = mode !== 'ink' && !mic && says === 0;
  const NOTHING =
    'nothing will be said in this session (no --say, --mic-file, --mic or lines on stdin): it runs until the cap; Ctrl-C ends it';
  if (silent && stdin.isTTY) notices.push(NOTHING);
  if (mic?.kind === 'file' && turns === undefined) {
    notices.push(
      `the session ends once the reply to what ${mic.label} says has been spoken (--turns N: after N replies; Ctrl-C ends it sooner)`,
    );
  }
  for (const n of notices) {
    runner.store.addLine('info', n);
    write({ event: 'notice', message: n, t: 0 });
  }
  const off = cli.onInterrupt(() => runner.end('interrupted'));
  // Off a terminal, lines piped in are typed turns; with no mic the session ends after the last.
  const piped =
    mode !== 'ink' && !stdin.isTTY
      ? typedLines(
          stdin,
          runner,
          !mic,
          says,
          () => silent && write({ event: 'notice', message: NOTHING, t: runner.elapsedS() }),
        )
      : undefined;
  let summary: LiveSummary;
  try {
    summary =
      mode === 'ink' ? await runInk(runner, stdout, stdin, 'NO_COLOR' in env) : await runner.run();
  } finally {
    off();
    piped?.close();
  }
  if (mode === 'ink')
    stdout.write(
      `session ${minted.session_id}: ${summary.released ? 'seat released' : 'seat NOT released'}\n`,
    );
  if (saver && saveTo) {
    writeFileSync(saveTo, JSON.stringify(saver.file()) + '\n');
    cli.note(`saved the session to ${saveTo}: avatar sessions replay ${saveTo}`);
  }
  const origin = cli.globals().origin;
  if (summary.reason === 'refused' && origin && /origin_not_allowed/.test(summary.detail ?? ''))
    cli.note(originRefusedHint(origin, body.domain_allowlist));
  // Captures live on the box, not in this terminal: say where (docs/live.md "Recordings").
  // spec 4.5: `recording` decides capture; `observability: true` alone (deprecated) means it.
  if (body.recording === true || (body.recording === undefined && body.observability === true)) {
    cli.note(
      `recorded on the box: avatar sessions recordings ${minted.session_id} -o DIR saves mic.wav and video.mp4`,
    );
  }
  // Why it ended is on screen once already (the `ended` line, or the view's last frame):
  // only the exit code is left to give (docs/live.md "How it ends").
  const code = exitCodeFor(summary.reason);
  if (code !== ExitCode.ok)
    throw new CliError(
      `session ended: ${endSentence(summary.reason, summary.detail)}`,
      code,
      undefined,
      true,
    );
}

/**
 * Each line of a piped stdin as a typed turn (`printf 'Hello\n' | avatar sessions live`).
 * When it ends and nothing else can speak (no mic), the session ends once the last typed
 * line (piped or --say) is answered, --turns or not: nothing more can come. With no line
 * typed at all (an empty stdin, no --say) nothing changes.
 */
function typedLines(
  stdin: NodeJS.ReadStream,
  runner: LiveRunner,
  endWithInput: boolean,
  says: number,
  onNothing: () => void,
): { close(): void } {
  const rl = createInterface({ input: stdin, crlfDelay: Infinity });
  let lines = 0;
  rl.on('line', (line) => {
    if (line.trim()) lines++;
    runner.typeLine(line);
  });
  rl.on('close', () => {
    if (endWithInput && lines + says > 0) runner.inputEnded();
    else if (lines === 0) onNothing();
  });
  return {
    close() {
      rl.removeAllListeners('close');
      rl.close();
      // Stop reading, so a pipe left open does not keep the process alive.
      stdin.pause?.();
    },
  };
}

async function runInk(
  runner: LiveRunner,
  stdout: NodeJS.WritableStream,
  stdin: NodeJS.ReadStream,
  noColor: boolean,
): Promise<LiveSummary> {
  const [{ render }, React, { LiveView }] = await Promise.all([
    import('ink'),
    import('react'),
    import('../views/live-view.js'),
  ]);
  const app = render(
    React.createElement(LiveView, {
      store: runner.store,
      onSubmit: (t: string) => void runner.say(t),
      onQuit: () => runner.end('interrupted'),
      noColor,
    }),
    { stdout: stdout as NodeJS.WriteStream, stdin, exitOnCtrlC: false },
  );
  try {
    return await runner.run();
  } finally {
    app.unmount();
    await app.waitUntilExit().catch(() => undefined);
  }
}

/** What to do when the edge refused `--origin` (403 origin_not_allowed, docs/edge.md). */
export function originRefusedHint(origin: string, allowlist: unknown): string {
  const listed =
    Array.isArray(allowlist) && allowlist.length ? ` (${allowlist.map(String).join(', ')})` : '';
  return `the edge refused --origin ${origin}: the session's domain_allowlist${listed} does not list it, as a browser on that page would be refused; add it to --domain-allowlist, or send the --origin of a listed page`;
}

/**
 * A CI job (CI or CONTINUOUS_INTEGRATION set, and not to 0/false): ink draws only the last
 * frame there (its own is-in-ci rule), so even with a TTY the session gets the line view.
 */
function inCi(env: NodeJS.ProcessEnv): boolean {
  return ['CI', 'CONTINUOUS_INTEGRATION'].some(
    (k) => env[k] !== undefined && env[k] !== '0' && env[k] !== 'false',
  );
}

/** A file we can create, checked before minting (a seat is not worth a typo in a path). */
export function checkWritable(file: string, flag: string): string {
  const dir = dirname(file);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new CliError(
      `${flag} ${file}: cannot write in ${dir} (does the folder exist?)`,
      ExitCode.usage,
    );
  }
  return file;
}

export function exitCodeFor(reason: LiveEndReason): ExitCodeValue {
  switch (reason) {
    case 'interrupted':
      return ExitCode.interrupted;
    case 'socket_lost':
      return ExitCode.network;
    case 'refused':
      return ExitCode.apiClientError;
    case 'error':
      return ExitCode.internal;
    default:
      return ExitCode.ok;
  }
}

export function parsePositiveInt(flag: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(
      `${flag} must be a whole number of at least 1 (got ${String(v)})`,
      ExitCode.usage,
    );
  return n;
}

/** The inline tool definitions a mint body sends (`tools.inline`, `extra_tools.inline`). */
function inlineTools(body: Record<string, unknown>): unknown[] {
  const inline = (v: unknown) => {
    const list = (v as { inline?: unknown } | null | undefined)?.inline;
    return Array.isArray(list) ? list : [];
  };
  return [...inline(body.tools), ...inline(body.extra_tools)];
}
