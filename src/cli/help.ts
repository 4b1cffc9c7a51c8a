/**
 * Help and commander's own messages (issue 7 item 10): help fits the terminal (80 columns
 * when stdout is not one) and wraps at word boundaries; an option whose name is too long
 * for a description column gets its description on the lines below. With --json,
 * commander's error lines are not printed: main.ts writes the error envelope instead.
 */
import type { Command } from 'commander';
import { Help } from './commander.js';
import type { Io } from './output.js';
import { BELOW_INDENT, helpWidth, MIN_DESCRIPTION, wrapText } from './wrap.js';

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
      if (!description || helper.displayWidth(term) <= termWidth)
        return Help.prototype.formatItem.call(helper, term, termWidth, description, helper);
      // Long terms: the term on its own line, the description wrapped below it.
      const pad = ' '.repeat(BELOW_INDENT);
      const wrapped = helper.boxWrap(description, width - BELOW_INDENT).replace(/\n/g, `\n${pad}`);
      return `  ${term}\n${pad}${wrapped}`;
    },
    // Word boundaries first; a word longer than the column (a route path, a JSON example)
    // is split after a '/' or ',' so no line runs past the width.
    boxWrap: (str, w) => wrapText(str, w),
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
