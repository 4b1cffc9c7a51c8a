/**
 * Human views of particular answers, by operation id, where the generic key/value and table
 * rendering (output.ts) would hide what the answer is. `--json` always prints the body.
 */
import { wrap } from './output.js';

/** `width`: the terminal's columns (cli.print); undefined on a pipe or a file: whole lines. */
type View = (body: unknown, width: number | undefined) => string;

interface Turn {
  seq?: unknown;
  user_text?: unknown;
  reply_text?: unknown;
}

/**
 * A transcript as the conversation it was: `you:` then `avatar:` per turn, wrapped to a
 * terminal under the text column; on a pipe each turn's text stays one line (for grep).
 */
function transcript(body: unknown, width: number | undefined): string {
  const t = body as {
    session_id?: unknown;
    source?: unknown;
    turns?: unknown;
    count?: unknown;
    deleted?: unknown;
  };
  const id = String(t.session_id ?? '');
  if (t.deleted === true) return `session ${id}: erased (no turns kept)`;
  const turns = Array.isArray(t.turns) ? (t.turns as Turn[]) : [];
  const count = typeof t.count === 'number' ? t.count : turns.length;
  const head = `session ${id} · ${count} turn${count === 1 ? '' : 's'} · source ${String(t.source ?? '')}`;
  if (!turns.length) return `${head}\n(no turns yet)`;
  const out = [head];
  const say = (who: string, text: string) => {
    const lines = width === undefined ? text.split('\n') : wrap(text, Math.max(20, width - 8 - 1));
    out.push(
      `${who.padEnd(8)}${lines[0] ?? ''}`,
      ...lines.slice(1).map((l) => `${' '.repeat(8)}${l}`),
    );
  };
  for (const turn of turns) {
    out.push('');
    const user = typeof turn.user_text === 'string' ? turn.user_text : '';
    const reply = typeof turn.reply_text === 'string' ? turn.reply_text : '';
    // The greeting (and a turn the avatar began) has no user text.
    if (user) say('you:', user);
    if (reply) say('avatar:', reply);
    else say('avatar:', '(no reply)');
  }
  // The tool-call ledger (docs/tools.md), when the session made calls.
  const calls = Array.isArray((t as { tool_calls?: unknown }).tool_calls)
    ? (t as { tool_calls: Record<string, unknown>[] }).tool_calls
    : [];
  if (calls.length) {
    out.push('');
    for (const c of calls)
      say(
        'tool:',
        `${String(c.tool)} (${String(c.source ?? '?')}) ${c.ok ? 'ok' : 'failed'}${typeof c.ms === 'number' ? `, ${c.ms} ms` : ''}`,
      );
  }
  return out.join('\n');
}

export const humanViews: Record<string, View> = {
  'sessions.transcript': transcript,
};
