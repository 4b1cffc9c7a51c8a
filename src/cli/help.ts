/**
 * Help and commander's own messages (issue 7 item 10): help fits the terminal (80 columns
 * when stdout is not one) and wraps at word boundaries; an option whose name is too long
 * for a description column gets its description on the lines below. With --json,
 * commander's error lines are not printed: main.ts writes the error envelope instead.
 */
import type { Command } from 'commander';
import { Help } from './commander.js';
import type { Io } from './output.js';

/** Smallest description column beside an option; a longer option name moves it below. */
const MIN_DESCRIPTION = 36;
const BELOW_INDENT = 8;

/** A word longer than `w` in pieces ending at '/' or ',' (continuations marked to join without a space). */
function splitLong(word: string, w: number): string[] {
  if (word.length <= w) return [word];
  const parts = word.match(/[^/,]*[/,]?/g)!.filter(Boolean);
  const out: string[] = [];
  let cur = '';
  for (const p of parts) {
    if (cur !== '' && (cur + p).length > w) {
      out.push(cur);
      cur = p;
    } else cur += p;
  }
  if (cur) out.push(cur);
  // Hard-cut what still does not fit.
  return out.flatMap((p) => p.match(new RegExp(`.{1,${w}}`, 'g'))!).map((p, i) => (i === 0 ? p : `\u200b${p}`));
}

export function helpWidth(io: Io): number {
  const cols = io.stdout.isTTY ? io.stdout.columns : undefined;
  return cols && cols >= 40 ? Math.min(cols, 120) : 80;
}

export function configureHelpOutput(cmd: Command, io: Io, json = false): void {
  const width = helpWidth(io);
  cmd.configureOutput({
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => {
      if (!json) io.stderr.write(s);
    },
    outputError: (s, write) => {
      if (!json) write(s);
    },
    getOutHelpWidth: () => width,
    getErrHelpWidth: () => width,
  });
  cmd.configureHelp({
    helpWidth: width,
    minWidthToWrap: 20,
    formatItem(term, termWidth, description, helper) {
      if (!description || helper.displayWidth(term) <= termWidth) return Help.prototype.formatItem.call(helper, term, termWidth, description, helper);
      // Long terms: the term on its own line, the description wrapped below it.
      const pad = ' '.repeat(BELOW_INDENT);
      const wrapped = helper.boxWrap(description, width - BELOW_INDENT).replace(/\n/g, `\n${pad}`);
      return `  ${term}\n${pad}${wrapped}`;
    },
    // Word boundaries first; a word longer than the column (a route path, a JSON example)
    // is split after a '/' or ',' so no line runs past the width.
    boxWrap(str, w) {
      if (w < 20) return str;
      return str
        .split('\n')
        .map((para) => {
          const words = para.split(/\s+/).filter(Boolean).flatMap((word) => splitLong(word, w));
          const lines: string[] = [];
          let cur = '';
          for (const word of words) {
            const glue = cur === '' || /[/,]$/.test(cur) && word.startsWith('\u200b') ? '' : ' ';
            const clean = word.replace(/^\u200b/, '');
            if (cur !== '' && (cur + glue + clean).length > w) {
              lines.push(cur);
              cur = clean;
            } else cur = cur + (cur === '' ? '' : glue) + clean;
          }
          lines.push(cur);
          return lines.join('\n');
        })
        .join('\n');
    },
    // Items beside the widest *short* term: long ones go below (formatItem) instead of
    // squeezing every description into a narrow column.
    padWidth(c, helper) {
      const terms = [
        ...helper.visibleOptions(c).map((o) => helper.optionTerm(o)),
        ...helper.visibleGlobalOptions(c).map((o) => helper.optionTerm(o)),
        ...helper.visibleCommands(c).map((s) => helper.subcommandTerm(s)),
        ...helper.visibleArguments(c).map((a) => helper.argumentTerm(a)),
      ].map((t) => helper.displayWidth(t));
      const fits = terms.filter((t) => t <= width - MIN_DESCRIPTION - 4);
      return Math.max(0, ...(fits.length ? fits : terms));
    },
  });
}
