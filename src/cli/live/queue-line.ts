/**
 * The queue line `sessions mint`, `sessions live`, `demo` and `smoke` show while a mint
 * waits (below the commands that share it: src/cli/live/mint.ts and commands/sessions.ts).
 */
import type { MintQueued } from '../../contract/resources/session.js';
import type { CliContext } from '../context.js';

/**
 * The longest of these that fits `width` columns (the last one cut if none does): the
 * status line is rewritten in place with `\r`, which only works while it stays on one row
 * (issue 7 item 7: at 80 columns a wrapped line left a copy behind at every poll).
 */
export function fitLine(variants: string[], width: number): string {
  const room = Math.max(10, width - 1);
  return variants.find((v) => v.length <= room) ?? variants[variants.length - 1]!.slice(0, room);
}

export function queueLineVariants(q: MintQueued): string[] {
  if (q.state === 'claimable')
    return [`seat reserved (ticket ${q.queue_ticket}): claiming`, 'seat reserved: claiming'];
  const eta =
    q.eta_seconds === null || q.eta_seconds === undefined ? 'unknown' : `${q.eta_seconds} s`;
  return [
    `queued: position ${q.position}, about ${eta} (ticket ${q.queue_ticket}; Ctrl-C leaves the queue)`,
    `queued: position ${q.position}, about ${eta} (Ctrl-C leaves the queue)`,
    `queued: position ${q.position}, about ${eta}`,
    `queued: #${q.position}, ~${eta}`,
  ];
}

/**
 * The live queue line on stderr (never stdout, so `--json` output stays one body): on a
 * terminal one line, fitted to its width, rewritten in place at every poll; elsewhere a
 * new line only when the state or position changed. Nothing with --json.
 */
export function queueStatusLine(cli: CliContext) {
  const err = cli.io.stderr as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  const tty = !!err.isTTY && !cli.globals().json;
  let last = '';
  let lastKey = '';
  let open = false;
  return {
    show(q: MintQueued) {
      const variants = queueLineVariants(q);
      if (tty) {
        const line = fitLine(variants, err.columns ?? 80);
        err.write(`\r\x1b[2K${line}`);
        open = true;
        last = line;
      } else if (`${q.state} ${q.position}` !== lastKey) {
        // The measured ETA moves at every poll (~3 s); a pipe gets a line when the state or
        // the position changes, as docs/sessions.md says (issue 24 item 12).
        cli.note(variants[0]!);
        last = variants[0]!;
        lastKey = `${q.state} ${q.position}`;
      }
    },
    done(final: string | null) {
      if (open) err.write(final ? `\r\x1b[2K${final}\n` : '\n');
      else if (final && last) cli.note(final);
      open = false;
    },
  };
}
