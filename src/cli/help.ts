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
