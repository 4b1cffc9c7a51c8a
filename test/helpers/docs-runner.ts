/**
 * The docs runner (issue 24): every shell example in README.md and docs/*.md runs against a
 * throwaway emulator, in order per file, and its documented output or exit code is checked.
 *
 * Conventions (CONTRIBUTING.md "Examples in the docs run"):
 * - ```sh and ```bash fences: each line is a command (a trailing `\` continues it, a heredoc
 *   runs to its terminator); it must exit 0, or N when its comment says `# exit N`.
 * - ```console fences: `$ command` lines, each followed by its documented output; every
 *   documented output line must appear in the command's stdout + stderr (looked for in
 *   order), where whitespace runs are equal, numbers, hex ids and `…` / `...` match anything.
 * - `<!-- skip-run: reason -->` on the line right before a fence skips that block (reported).
 * - `<!-- run-emulator-with: --flag ... -->` anywhere in a file adds flags to the emulator
 *   that serves it (what the file tells the reader to start theirs with).
 * - One bash per file runs its commands in order, so variables (`SESSION_ID=$(...)`), files
 *   and `cd` carry over from block to block, and one emulator per file serves them: started
 *   in memory on port 0 (loopback), found by the CLI without flags, its `--json` ready line
 *   saved as `emulator.json` in the work dir. The work dir also holds the reader's own
 *   files the docs assume (face.png, face.jpg, sample.wav, me.wav) and `bin/` of this
 *   checkout; `avatar` is on PATH.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { image, wav } from './avatar-media.js';

export const repoRoot = resolve(import.meta.dirname, '../..');

export interface Command {
  /** 1-based line in the Markdown file where the command starts. */
  line: number;
  text: string;
  expectedExit: number;
  /** Documented output lines (console blocks), empty when none is shown. */
  output: string[];
}

export interface Block {
  file: string;
  line: number;
  lang: string;
  skip?: string;
  commands: Command[];
}

const RUN_LANGS = new Set(['sh', 'bash', 'console']);
const SKIP = /^\s*<!--\s*skip-run:\s*(.*?)\s*-->\s*$/;
const EXIT = /#\s*exits?\s+(\d+)\b/;

/** The shell blocks of one Markdown file, with their commands. */
export function parseBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const lang = open[3]!.toLowerCase();
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trimStart().startsWith(fence)) body.push(lines[j++]!);
    if (RUN_LANGS.has(lang)) {
      const skip = i > 0 ? SKIP.exec(lines[i - 1]!)?.[1] : undefined;
      const start = i + 2; // line number of body[0]
      blocks.push({
        file,
        line: i + 1,
        lang,
        skip,
        commands: lang === 'console' ? consoleCommands(body, start) : shCommands(body, start),
      });
    }
    i = j;
  }
  return blocks;
}

/** Joins continuation lines and heredoc bodies onto the line that starts a command. */
function takeCommand(body: string[], k: number, first: string): { text: string; next: number } {
  const parts = [first];
  let last = first;
  let next = k + 1;
  while (/\\\s*$/.test(last) && next < body.length) {
    last = body[next++]!.replace(/^> ?/, '');
    parts.push(last);
  }
  const heredoc = /<<-?\s*(['"]?)(\w+)\1/.exec(parts.join('\n'));
  if (heredoc) {
    while (next < body.length) {
      const l = body[next++]!;
      parts.push(l);
      if (l.trim() === heredoc[2]) break;
    }
  }
  return { text: parts.join('\n'), next };
}

function shCommands(body: string[], start: number): Command[] {
  const out: Command[] = [];
  for (let k = 0; k < body.length; ) {
    const l = body[k]!;
    if (l.trim() === '' || l.trim().startsWith('#')) {
      k++;
      continue;
    }
    const { text, next } = takeCommand(body, k, l);
    out.push({ line: start + k, text, expectedExit: expectedExit(text), output: [] });
    k = next;
  }
  return out;
}

function consoleCommands(body: string[], start: number): Command[] {
  const out: Command[] = [];
  for (let k = 0; k < body.length; ) {
    const l = body[k]!;
    if (!l.startsWith('$ ')) {
      if (out.length > 0 && l.trim() !== '') out[out.length - 1]!.output.push(l);
      k++;
      continue;
    }
    const { text, next } = takeCommand(body, k, l.slice(2));
    out.push({ line: start + k, text, expectedExit: expectedExit(text), output: [] });
    k = next;
  }
  return out;
}

function expectedExit(text: string): number {
  const m = EXIT.exec(text);
  return m ? Number(m[1]) : 0;
}

// `…` or `...`; a run of hex digits and dashes with a digit in it (a number, an id, a key
// part: `08e4221b-…` included); whitespace.
const WILD = /(…|\.\.\.)|([0-9a-f-]*\d[0-9a-f-]*)|(\s+)/g;

/** A documented output line as a pattern (see the header). */
export function linePattern(doc: string): RegExp {
  let src = '';
  let at = 0;
  const t = doc.trim();
  for (const m of t.matchAll(WILD)) {
    src += escape(t.slice(at, m.index));
    src += m[1] ? '.*?' : m[2] ? '[0-9a-f-]+' : '\\s+';
    at = m.index! + m[0].length;
  }
  src += escape(t.slice(at));
  return new RegExp(src, 'g');
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The first documented line missing from the output, or undefined. Lines are looked for in
 * order (a repeated line matches its next occurrence); one found only before the previous
 * match still counts.
 */
export function missingLine(documented: string[], actual: string): string | undefined {
  const text = actual.replace(/\x1b\[[0-9;]*m/g, '');
  let from = 0;
  for (const d of documented) {
    if (/^\s*(…|\.\.\.)\s*$/.test(d)) continue;
    const re = linePattern(d);
    re.lastIndex = from;
    const m = re.exec(text);
    if (m) {
      from = m.index + m[0].length;
      continue;
    }
    // Events of one moment come in either order from run to run (the greeting and
    // `connected`): a line found earlier in the output counts too.
    re.lastIndex = 0;
    if (!re.exec(text)) return d;
  }
  return undefined;
}

export interface Failure {
  /** `docs/live.md:123` */
  where: string;
  command: string;
  message: string;
  output: string;
}

export interface FileReport {
  file: string;
  ran: number;
  skipped: { where: string; reason: string; commands: number }[];
  failures: Failure[];
  ms: number;
  /** The slowest commands, `file:line` and ms, slowest first. */
  slowest: { where: string; ms: number }[];
}

export interface RunOptions {
  /** Seconds one command may take before it is a failure (default 90). */
  commandTimeoutS?: number;
}

/** Runs the examples of one Markdown file; never throws for a failing example. */
export async function runFile(path: string, opts: RunOptions = {}): Promise<FileReport> {
  const t0 = performance.now();
  const file = relative(repoRoot, path) || basename(path);
  const text = readFileSync(path, 'utf8');
  const blocks = parseBlocks(file, text);
  const extraFlags = [...text.matchAll(/<!--\s*run-emulator-with:\s*(.*?)\s*-->/g)].flatMap((m) =>
    m[1]!.split(/\s+/).filter(Boolean),
  );
  const report: FileReport = { file, ran: 0, skipped: [], failures: [], ms: 0, slowest: [] };
  const times: { where: string; ms: number }[] = [];
  for (const b of blocks)
    if (b.skip !== undefined)
      report.skipped.push({
        where: `${file}:${b.line}`,
        reason: b.skip,
        commands: b.commands.length,
      });
  const commands = blocks.filter((b) => b.skip === undefined).flatMap((b) => b.commands);
  if (commands.length === 0) {
    report.ms = performance.now() - t0;
    return report;
  }
  const work = mkdtempSync(join(tmpdir(), 'avatar-docs-'));
  const env = await prepareWorkDir(work);
  let emulator: ChildProcess | undefined;
  let shell: ChildProcess | undefined;
  try {
    emulator = spawn(
      process.execPath,
      [
        join(repoRoot, 'bin/avatar.js'),
        'emulator',
        'start',
        '--in-memory',
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--json',
        ...extraFlags,
      ],
      { cwd: work, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const ready = await firstLine(emulator, 30_000);
    writeFileSync(join(work, 'emulator.json'), ready + '\n');

    shell = spawn('bash', ['--noprofile', '--norc'], {
      cwd: join(work),
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const done = markers(shell);
    shell.stdin!.on('error', () => {}); // a shell that exited: reported by done.next
    shell.stdin!.write('set -o pipefail\n');
    for (const [i, c] of commands.entries()) {
      const out = join(work, '.docs-run', `out.${i}`);
      const started = performance.now();
      shell.stdin!.write(
        `{ ${c.text}\n} > '${out}' 2>&1 < /dev/null\necho "__DOCS_DONE ${i} $?"\n`,
      );
      const rc = await done.next(i, (opts.commandTimeoutS ?? 90) * 1000);
      report.ran++;
      const output = readOut(out);
      const where = `${file}:${c.line}`;
      times.push({ where, ms: performance.now() - started });
      if (rc === undefined || rc === 'shell exited') {
        const message =
          rc === undefined
            ? `did not finish in ${opts.commandTimeoutS ?? 90} s`
            : `bash stopped here (a syntax error?): ${done.stderr().trim()}`;
        report.failures.push({ where, command: c.text, message, output });
        break; // the shell is stuck in it or gone: what follows cannot run
      }
      if (rc !== c.expectedExit) {
        report.failures.push({
          where,
          command: c.text,
          message: `exited ${rc}, the docs expect ${c.expectedExit}`,
          output,
        });
        continue;
      }
      const missing = missingLine(c.output, output);
      if (missing !== undefined)
        report.failures.push({
          where,
          command: c.text,
          message: `the output does not show the documented line: ${missing.trim()}`,
          output,
        });
    }
  } catch (e) {
    report.failures.push({ where: file, command: '(set-up)', message: String(e), output: '' });
  } finally {
    for (const p of [shell, emulator]) if (p?.pid) killGroup(p.pid);
    await new Promise((r) => setTimeout(r, 200));
    rmSync(work, { recursive: true, force: true });
  }
  report.ms = performance.now() - t0;
  report.slowest = times.sort((a, b) => b.ms - a.ms).slice(0, 3);
  return report;
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
}

function readOut(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The reader's own files, an `avatar` on PATH, private config and state. */
async function prepareWorkDir(work: string): Promise<Record<string, string>> {
  mkdirSync(join(work, '.docs-run', 'path'), { recursive: true });
  mkdirSync(join(work, 'home'));
  const shim = join(work, '.docs-run', 'path', 'avatar');
  writeFileSync(
    shim,
    `#!/bin/sh\nexec "${process.execPath}" "${join(repoRoot, 'bin/avatar.js')}" "$@"\n`,
  );
  chmodSync(shim, 0o755);
  symlinkSync(join(repoRoot, 'bin'), join(work, 'bin'));
  copyFileSync(join(repoRoot, 'fixtures/personas/ava/face.png'), join(work, 'face.png'));
  writeFileSync(join(work, 'face.jpg'), await image('jpeg'));
  writeFileSync(join(work, 'sample.wav'), wav(6));
  writeFileSync(join(work, 'me.wav'), wav(6));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (
      v !== undefined &&
      !k.startsWith('AVATAR_') &&
      k !== 'CI' &&
      !k.startsWith('VITEST') &&
      k !== 'NODE_OPTIONS'
    )
      env[k] = v;
  return {
    ...env,
    PATH: `${join(work, '.docs-run', 'path')}:${dirnameOf(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: join(work, 'home'),
    XDG_CONFIG_HOME: join(work, 'home', '.config'),
    XDG_STATE_HOME: join(work, 'home', '.local', 'state'),
    NO_COLOR: '1',
  };
}

function dirnameOf(p: string): string {
  return p.slice(0, p.lastIndexOf('/'));
}

function firstLine(p: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolveLine, reject) => {
    let err = '';
    p.stderr!.on('data', (d) => (err += d));
    const rl = createInterface({ input: p.stdout! });
    const timer = setTimeout(
      () => reject(new Error(`the emulator did not start in ${timeoutMs} ms: ${err}`)),
      timeoutMs,
    );
    rl.once('line', (l) => {
      clearTimeout(timer);
      resolveLine(l);
    });
    p.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited ${code}: ${err}`));
    });
  });
}

/** Waits for `__DOCS_DONE i rc` lines from the shell. */
function markers(shell: ChildProcess): {
  next(i: number, timeoutMs: number): Promise<number | 'shell exited' | undefined>;
  stderr(): string;
} {
  const seen = new Map<number, number>();
  let wake: (() => void) | undefined;
  let exited = false;
  let err = '';
  shell.stderr!.on('data', (d) => (err += d));
  shell.once('exit', () => {
    exited = true;
    wake?.();
  });
  const rl = createInterface({ input: shell.stdout! });
  rl.on('line', (l) => {
    const m = /^__DOCS_DONE (\d+) (\d+)$/.exec(l);
    if (m) seen.set(Number(m[1]), Number(m[2]));
    wake?.();
  });
  return {
    stderr: () => err,
    async next(i, timeoutMs) {
      const until = performance.now() + timeoutMs;
      while (!seen.has(i)) {
        if (exited) return 'shell exited';
        const left = until - performance.now();
        if (left <= 0) return undefined;
        await new Promise<void>((r) => {
          const t = setTimeout(r, Math.min(left, 1000));
          wake = () => {
            clearTimeout(t);
            r();
          };
        });
      }
      return seen.get(i);
    },
  };
}

/** One line per failure, `file:line: $ command: what went wrong`, then the output. */
export function describeFailures(reports: FileReport[]): string {
  return reports
    .flatMap((r) => r.failures)
    .map(
      (f) =>
        `${f.where}: $ ${f.command.split('\n')[0]}\n  ${f.message}\n${indent(f.output.trimEnd().split('\n').slice(-15).join('\n'))}`,
    )
    .join('\n');
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `    | ${l}`)
    .join('\n');
}
