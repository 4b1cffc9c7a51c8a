/**
 * The body of `avatar sessions replay` (docs/testing.md "Record and replay"):
 * mint with the recorded body, stream the recorded uplink from the connect (the same
 * frames at the same 100 ms cadence), type each recorded line at its recorded time (or
 * once the avatar is quiet, as `sessions live` types), end after as many user turns as
 * the recording had, and compare the transcripts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import type { Stamped } from '../live/live-log.js';
import { LiveRunner } from '../live/live-runner.js';
import { micFromPcm } from '../live/mic-source.js';
import { mintLive, releaseSeat } from '../live/mint.js';
import {
  diffTranscripts,
  keptEvent,
  parseSessionFile,
  transcriptOf,
  type Difference,
  type SessionFile,
  type TranscriptEntry,
} from '../live/session-file.js';

/** A saved session, read and checked; a usage error saying what is wrong with it. */
export function readRecording(cli: CliContext, file: string): SessionFile {
  const path = resolve(cli.io.cwd, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(
      `${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      ExitCode.usage,
    );
  }
  try {
    return parseSessionFile(text, file);
  } catch (e) {
    throw new CliError((e as Error).message, ExitCode.usage);
  }
}

/**
 * `--to-script OUT`: no replay; the recording becomes a conversation script (to-script.ts),
 * written as YAML (OUT ending .yaml or .yml) or JSON.
 */
export async function writeToScript(cli: CliContext, file: string, out: string): Promise<void> {
  const rec = readRecording(cli, file);
  const { scriptFromSession, scriptName } = await import('./to-script.js');
  let script;
  try {
    script = scriptFromSession(rec, scriptName(file));
  } catch (e) {
    throw new CliError(
      `${file}: cannot be a script: ${(e as Error).message.split('\n')[0]}`,
      ExitCode.usage,
    );
  }
  const yaml = /\.ya?ml$/i.test(out);
  const text = yaml
    ? (await import('yaml')).stringify(script, { lineWidth: 0 })
    : `${JSON.stringify(script, null, 2)}\n`;
  const path = resolve(cli.io.cwd, out);
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new CliError(
      `${out}: cannot write it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      ExitCode.usage,
    );
  }
  const rules = script.rules ?? [];
  const report = {
    file,
    out,
    name: script.name,
    match: script.match,
    rules: rules.length,
    tool_steps: rules.flatMap((r) => r.then.filter((s) => 'tool' in s)).length,
  };
  cli.print(
    report,
    () =>
      `wrote ${out}: script ${report.name}, ${report.rules} rules (${report.tool_steps} tool steps), strict\nload it: avatar emulator scripts load ${out}  (or emulator start --script ${out})`,
  );
}

export async function runReplay(cli: CliContext, file: string): Promise<void> {
  const rec = readRecording(cli, file);
  const body = { ...rec.mint, ...(rec.protocol === 2 ? { protocol_versions: [2] } : {}) };
  const mic = rec.mic
    ? micFromPcm(Buffer.from(rec.mic.pcm16_base64, 'base64'), `${file} (recorded mic)`)
    : undefined;
  // A turn with no user text (the greeting, a line the avatar began) is not one the user asked.
  const userTurns = rec.transcript.filter((e) => e.event === 'turn' && e.text !== '').length;
  const client = cli.client();
  const minted = await mintLive(cli, client, body);
  const events: Stamped[] = [];
  const runner = new LiveRunner({
    minted,
    label: `replay of ${file}`,
    mic,
    // What was sent is replayed as sent (gated frames are already zeroes): never gate again.
    headphones: true,
    endOnMicFailure: true,
    turns: userTurns > 0 ? userTurns : undefined,
    lang: rec.lang,
    origin: cli.globals().origin,
    release: () => releaseSeat(client, minted),
    onLog: (e) => {
      if (keptEvent(e)) events.push(e);
    },
    endAfterMicFile: mic !== undefined && userTurns === 0,
  });
  const off = cli.onInterrupt(() => runner.end('interrupted'));
  const running = runner.run();
  // Each typed line at its recorded time; typeLine holds it while the avatar is still speaking.
  const timers = rec.typed.map((x) =>
    setTimeout(() => runner.typeLine(x.text), Math.max(0, x.t * 1000 - runner.elapsedS() * 1000)),
  );
  if (!mic && rec.typed.length)
    setTimeout(
      () => runner.inputEnded('the recording'),
      Math.max(...rec.typed.map((x) => x.t)) * 1000 + 10,
    ).unref();
  let summary;
  try {
    summary = await running;
  } finally {
    off();
    timers.forEach(clearTimeout);
  }
  const replayed = transcriptOf(events);
  const differences = diffTranscripts(rec.transcript, replayed);
  const report = {
    file,
    session_id: minted.session_id,
    ended: summary.reason,
    same: differences.length === 0,
    recorded_entries: rec.transcript.length,
    replayed_entries: replayed.length,
    differences,
    transcript: replayed,
  };
  cli.print(report, () => humanReplay(report));
  if (summary.reason === 'interrupted')
    throw new CliError('replay interrupted', ExitCode.interrupted, undefined, true);
  if (differences.length) {
    const message = `the replay differs from ${file} at ${differences.length} of ${Math.max(rec.transcript.length, replayed.length)} entries`;
    throw new CliError(message, ExitCode.checkFailed, {
      error: 'replay_differs',
      message,
      differences,
    });
  }
}

const entryText = (e: TranscriptEntry | null): string => {
  if (!e) return '(nothing)';
  if (e.event === 'turn')
    return e.greeting
      ? `greeting: ${e.reply}`
      : e.text === ''
        ? `avatar: ${e.reply}`
        : `heard "${e.text}" -> "${e.reply}"`;
  if (e.event === 'said') return `typed "${e.text}"`;
  return `tool ${e.kind}${e.tool ? ` ${e.tool}` : ''}`;
};

function humanReplay(r: {
  file: string;
  same: boolean;
  differences: Difference[];
  transcript: TranscriptEntry[];
}): string {
  if (r.same)
    return `the replay matches ${r.file}: ${r.transcript.length} entries\n${r.transcript.map((e) => `  ${entryText(e)}`).join('\n')}`;
  const lines = [`the replay differs from ${r.file}:`];
  for (const d of r.differences)
    lines.push(
      `  #${d.at + 1}: recorded ${entryText(d.recorded)}`,
      `       replayed ${entryText(d.replayed)}`,
    );
  return lines.join('\n');
}
