/**
 * Help text layout shared by commander's help (src/cli/help.ts) and the top-level help
 * printed without commander (src/cli/top-help.ts): width, word wrap, long words split
 * after '/' or ','.
 */

/** Smallest description column beside a term; a longer term moves its description below. */
export const MIN_DESCRIPTION = 36;
export const BELOW_INDENT = 8;

export function helpWidth(io: { stdout: { isTTY?: boolean; columns?: number } }): number {
  const cols = io.stdout.isTTY ? io.stdout.columns : undefined;
  return cols && cols >= 40 ? Math.min(cols, 120) : 80;
}

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

/** Wrap at word boundaries to `w` columns; a word longer than a line is split after '/' or ','. */
export function wrapText(str: string, w: number): string {
  if (w < 20) return str;
  return str
    .split('\n')
    .map((para) => {
      const words = para.split(/\s+/).filter(Boolean).flatMap((word) => splitLong(word, w));
      const lines: string[] = [];
      let cur = '';
      for (const word of words) {
        const glue = cur === '' || (/[/,]$/.test(cur) && word.startsWith('\u200b')) ? '' : ' ';
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
}

/**
 * Lines longer than `w` wrapped at word boundaries, their indentation kept on the lines
 * they wrap onto; shorter lines (and their layout) untouched. For the CLI's messages.
 */
export function fitLines(text: string, w: number): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= w) return line;
      const indent = /^\s*/.exec(line)![0];
      return wrapText(line.slice(indent.length), w - indent.length).replace(/^/gm, indent);
    })
    .join('\n');
}
