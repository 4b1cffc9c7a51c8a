import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { operatorCall, operatorPath } from './emulator-operator.js';

/**
 * `avatar emulator logs [-f] [--session ID] [--json]` (issue 18 item 9; docs/testing.md
 * "Operator log"): the emulator's structured log over `GET /_emulator/logs`; `-f` keeps
 * reading (every half second) until Ctrl-C.
 */
interface Entry {
  seq: number;
  at: string;
  kind: string;
  session?: string;
  [k: string]: unknown;
}

/** One line for people: time, what, and the session it concerns. */
export function formatEntry(e: Entry): string {
  const time = e.at.slice(11, 23);
  const tail = e.session ? `  session ${e.session}` : '';
  if (e.kind === 'request')
    return `${time}  ${String(e.method)} ${String(e.path)} ${String(e.status)} ${String(e.ms)}ms${e.ticket ? `  ticket ${String(e.ticket)}` : ''}${tail}`;
  if (e.kind === 'event') {
    const d = (e.data ?? {}) as Record<string, unknown>;
    const extra = ['ticket', 'reason', 'position', 'state']
      .filter((k) => d[k] !== undefined)
      .map((k) => `${k} ${String(d[k])}`)
      .join('  ');
    return `${time}  event ${String(e.event)}${extra ? `  ${extra}` : ''}${tail}`;
  }
  if (e.kind === 'fault') {
    // A stream fault says where it was met; an HTTP fault, the request and what it got.
    const what = e.stream
      ? `${String(e.stream)} at ${String(e.event)}  box ${String(e.box)}`
      : `${String(e.method)} ${String(e.path)}${e.status !== null ? ` ${String(e.status)}` : ''}${e.latency_ms ? ` +${String(e.latency_ms)}ms` : ''}`;
    return `${time}  fault ${String(e.fault)} ${what}${tail}`;
  }
  if (e.kind === 'session.ended')
    return `${time}  session ${String(e.session)} ended (${String(e.reason)})`;
  return `${time}  ${e.kind}${tail}`;
}

export function registerLogs(group: Command, cli: CliContext): void {
  const cmd = group
    .command('logs')
    .description("the emulator's log: requests, mints, queue moves, session events and ends")
    .option('-f, --follow', 'keep printing new entries until Ctrl-C')
    .option('--session <id>', 'only the entries of one session');
  cmd.action(async () => {
    const opts = cmd.opts<{ follow?: boolean; session?: string }>();
    const json = !!cli.globals().json;
    const logsPath = await operatorPath('logs');
    const query = (after: number) =>
      `${logsPath}?after=${after}${opts.session ? `&session=${encodeURIComponent(opts.session)}` : ''}`;
    const print = (entries: Entry[]) => {
      for (const e of entries)
        cli.io.stdout.write((json ? JSON.stringify(e) : formatEntry(e)) + '\n');
    };
    let after = 0;
    const read = async () => {
      const r = await operatorCall<{ data: Entry[]; last: number }>(cli, 'GET', query(after));
      print(r.data);
      after = r.last;
    };
    await read();
    if (!opts.follow) return;
    let stop = false;
    let wake: (() => void) | null = null;
    const off = cli.onInterrupt(() => {
      stop = true;
      wake?.();
    });
    try {
      while (!stop) {
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 500).unref();
        });
        if (!stop) await read();
      }
    } finally {
      off();
    }
  });
}
