/**
 * The docs runner (issue 24): every shell example in README.md and docs/*.md runs against an
 * emulator, in order per file, and its documented output or exit code is checked.
 *
 * Conventions (CONTRIBUTING.md "Examples in the docs run"):
 * - ```sh and ```bash fences: each line is a command (a trailing `\` continues it, a heredoc
 *   runs to its terminator); it must exit 0, or N when its comment says `# exit N`.
 * - ```console fences: `$ command` lines, each followed by its documented output; every
 *   documented output line must appear in the command's stdout + stderr (looked for in
 *   order), where whitespace runs are equal, numbers, hex ids and `…` / `...` match anything.
 * - `<!-- skip-run: reason -->` on the line right before a fence skips that block (reported).
 * - The emulator every page assumes is the README's recommended start (its Quick start's
 *   `npm start -- FLAGS` line; issue 32): the runner starts it with those flags.
 * - `<!-- run-emulator-with: --flag ... -->` anywhere in a file: the page needs another start
 *   (and tells the reader how to stop the recommended one first): these flags are added.
 * - One bash per run executes the commands in order, so variables (`SESSION_ID=$(...)`),
 *   files and `cd` carry over from block to block. The work dir holds the reader's own files
 *   the docs assume (face.png, face.jpg, sample.wav, me.wav) and `bin/` of this checkout;
 *   `avatar` is on PATH and finds the emulator without flags. Nothing else is there: a page
 *   that reads a file (`emulator.json`) makes it first.
 * - `runFile`: one page against an emulator of its own (in memory), as a reader who opens
 *   just that page. `runWalkthrough`: every page in the README's order, in one shell and one
 *   work dir, against one emulator with a data dir (as `npm start` keeps one), restarted
 *   only for a page that needs another start: what each page leaves behind is what the next
 *   one meets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
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

/** The flags of the README's recommended start: its Quick start's `npm start -- FLAGS`. */
export function recommendedStartFlags(): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const m = /^npm ci && npm start(?: -- ([^#\n]*?))?\s*(?:#.*)?$/m.exec(readme);
  if (!m) throw new Error('README.md: no `npm ci && npm start` line in the Quick start');
  return (m[1] ?? '').split(/\s+/).filter(Boolean);
}

/** A page's own start (`<!-- run-emulator-with: ... -->`), empty when it needs none. */
export function pageStartFlags(text: string): string[] {
  return [...text.matchAll(/<!--\s*run-emulator-with:\s*(.*?)\s*-->/g)].flatMap((m) =>
    m[1]!.split(/\s+/).filter(Boolean),
  );
}

/** The README's page order (its "Docs" list), then every other page, by name. */
export function walkthroughOrder(): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const docs = readme.slice(readme.indexOf('\n## Docs'));
  const listed = [...docs.matchAll(/\]\((docs\/[\w-]+\.md)\)/g)].map((m) => m[1]!);
  const all = readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...new Set([...listed, ...all].filter((f) => all.includes(f)))];
}

interface Page {
  file: string;
  commands: Command[];
  report: FileReport;
  flags: string[];
}

function loadPage(path: string): Page {
  const file = relative(repoRoot, path) || basename(path);
  const text = readFileSync(path, 'utf8');
  const blocks = parseBlocks(file, text);
  const report: FileReport = { file, ran: 0, skipped: [], failures: [], ms: 0, slowest: [] };
  for (const b of blocks)
    if (b.skip !== undefined)
      report.skipped.push({
        where: `${file}:${b.line}`,
        reason: b.skip,
        commands: b.commands.length,
      });
  return {
    file,
    commands: blocks.filter((b) => b.skip === undefined).flatMap((b) => b.commands),
    report,
    flags: pageStartFlags(text),
  };
}

/** Runs the examples of one Markdown file; never throws for a failing example. */
export async function runFile(path: string, opts: RunOptions = {}): Promise<FileReport> {
  const t0 = performance.now();
  const page = loadPage(path);
  const report = page.report;
  if (page.commands.length === 0) {
    report.ms = performance.now() - t0;
    return report;
  }
  const work = mkdtempSync(join(tmpdir(), 'avatar-docs-'));
  const env = await prepareWorkDir(work);
  let emulator: ChildProcess | undefined;
  let shell: Shell | undefined;
  try {
    emulator = (
      await startDocsEmulator(work, env, ['--in-memory', ...recommendedStartFlags(), ...page.flags])
    ).process;
    shell = openShell(work, env);
    await runCommands(shell, page, work, opts);
  } catch (e) {
    report.failures.push({ where: page.file, command: '(set-up)', message: String(e), output: '' });
  } finally {
    for (const p of [shell?.process, emulator]) if (p?.pid) killGroup(p.pid);
    await new Promise((r) => setTimeout(r, 200));
    rmSync(work, { recursive: true, force: true });
  }
  report.ms = performance.now() - t0;
  return report;
}

export interface WalkthroughReport {
  pages: FileReport[];
  /** The ready line of the recommended start running after the last page. */
  emulator?: { base_url: string; secret_key: string; dashboard_key: string };
  /** What the last page left in the emulator, read before it stops. */
  leftovers?: { avatars: string[]; orgPlan?: string };
}

/**
 * Every page in `files`' order, as one reader pastes them: one shell, one work dir, one
 * emulator of the recommended start with a data dir (the Quick start's `npm start` keeps
 * one), stopped and started again with a page's own flags only for a page that needs another
 * start (and the recommended one again after it). The data dir keeps the keys across restarts.
 */
export async function runWalkthrough(
  files: string[],
  opts: RunOptions = {},
): Promise<WalkthroughReport> {
  const pages = files.map((f) => loadPage(join(repoRoot, f)));
  const out: WalkthroughReport = { pages: pages.map((p) => p.report) };
  const work = mkdtempSync(join(tmpdir(), 'avatar-walk-'));
  const env = await prepareWorkDir(work);
  const data = join(work, '.avatar-emulator');
  const recommended = ['--data', data, ...recommendedStartFlags()];
  let emulator: RunningDocsEmulator | undefined;
  let shell: Shell | undefined;
  try {
    emulator = await startDocsEmulator(work, env, recommended);
    out.emulator = JSON.parse(emulator.ready);
    shell = openShell(work, env);
    for (const page of pages) {
      const t0 = performance.now();
      if (page.flags.length > 0) {
        await emulator.stop();
        emulator = await startDocsEmulator(work, env, [...recommended, ...page.flags]);
      }
      const usable = await runCommands(shell, page, work, opts);
      page.report.ms = performance.now() - t0;
      if (!usable) break;
      if (page.flags.length > 0) {
        await emulator.stop();
        emulator = await startDocsEmulator(work, env, recommended);
      }
    }
    // A restart on port 0 moved it: the running one's URL (the keys stay, the data dir's).
    out.emulator = JSON.parse(emulator.ready);
    out.leftovers = await leftovers(out.emulator!);
  } catch (e) {
    pages[0]!.report.failures.push({
      where: 'walk-through',
      command: '(set-up)',
      message: (e as Error).stack ?? String(e),
      output: '',
    });
  } finally {
    for (const p of [shell?.process, emulator?.process]) if (p?.pid) killGroup(p.pid);
    await new Promise((r) => setTimeout(r, 200));
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}

/** The avatar names of the bootstrap workspace and the organisation's plan, after the last page. */
async function leftovers(emu: {
  base_url: string;
  secret_key: string;
  dashboard_key: string;
}): Promise<WalkthroughReport['leftovers']> {
  const get = async (path: string, key: string) =>
    (await (
      await fetch(`${emu.base_url}${path}`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as Record<string, any>;
  const avatars = await get('/api/v1/avatars?limit=100', emu.secret_key);
  const orgs = await get('/api/organizations', emu.secret_key);
  const org = (orgs.data ?? [orgs])[0] as Record<string, unknown> | undefined;
  return {
    avatars: ((avatars.data ?? []) as { name: string }[]).map((a) => a.name),
    orgPlan: typeof org?.plan === 'string' ? org.plan : undefined,
  };
}

interface RunningDocsEmulator {
  process: ChildProcess;
  ready: string;
  stop(): Promise<void>;
}

async function startDocsEmulator(
  work: string,
  env: Record<string, string>,
  flags: string[],
): Promise<RunningDocsEmulator> {
  const p = spawn(
    process.execPath,
    [
      join(repoRoot, 'bin/avatar.js'),
      'emulator',
      'start',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--json',
      ...flags,
    ],
    { cwd: work, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const ready = await firstLine(p, 30_000);
  return {
    process: p,
    ready,
    stop: () =>
      new Promise<void>((resolveStop) => {
        if (p.exitCode !== null || p.signalCode !== null) return resolveStop();
        p.once('exit', () => resolveStop());
        killGroup(p.pid!);
      }),
  };
}

interface Shell {
  process: ChildProcess;
  done: ReturnType<typeof markers>;
  /** Commands run so far (the markers' numbering). */
  count: number;
}

function openShell(work: string, env: Record<string, string>): Shell {
  const p = spawn('bash', ['--noprofile', '--norc'], {
    cwd: work,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const done = markers(p);
  p.stdin!.on('error', () => {}); // a shell that exited: reported by done.next
  p.stdin!.write('set -o pipefail\n');
  return { process: p, done, count: 0 };
}

/**
 * One page's commands in `shell`, failures and times into its report; false when the shell
 * is stuck in a command or gone (what follows cannot run).
 */
async function runCommands(
  shell: Shell,
  page: Page,
  work: string,
  opts: RunOptions,
): Promise<boolean> {
  const report = page.report;
  const times: { where: string; ms: number }[] = [];
  for (const c of page.commands) {
    const i = shell.count++;
    const out = join(work, '.docs-run', `out.${i}`);
    const started = performance.now();
    shell.process.stdin!.write(
      `{ ${c.text}\n} > '${out}' 2>&1 < /dev/null\necho "__DOCS_DONE ${i} $?"\n`,
    );
    const rc = await shell.done.next(i, (opts.commandTimeoutS ?? 90) * 1000);
    report.ran++;
    const output = readOut(out);
    const where = `${page.file}:${c.line}`;
    times.push({ where, ms: performance.now() - started });
    if (rc === undefined || rc === 'shell exited') {
      const message =
        rc === undefined
          ? `did not finish in ${opts.commandTimeoutS ?? 90} s`
          : `bash stopped here (a syntax error?): ${shell.done.stderr().trim()}`;
      report.failures.push({ where, command: c.text, message, output });
      report.slowest = times.sort((a, b) => b.ms - a.ms).slice(0, 3);
      return false;
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
  report.slowest = times.sort((a, b) => b.ms - a.ms).slice(0, 3);
  return true;
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
