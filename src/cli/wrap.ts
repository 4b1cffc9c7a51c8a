/**
 * Help text layout shared by commander's help (src/cli/help.ts) and the top-level help
 * printed without commander (src/cli/top-help.ts): width, word wrap, long words split
 * after '/' or ','. Widths are terminal columns (string-width: a CJK character or an emoji
 * takes two), never `.length`.
 */
import stringWidth from 'string-width';

/** Smallest description column beside a term; a longer term moves its description below. */
export const MIN_DESCRIPTION = 36;
export const BELOW_INDENT = 8;

export function helpWidth(io: { stdout: { isTTY?: boolean; columns?: number } }): number {
  const cols = io.stdout.isTTY ? io.stdout.columns : undefined;
  return cols && cols >= 40 ? Math.min(cols, 120) : 80;
}

/** A word longer than `w` in pieces ending at '/' or ',' (continuations marked to join without a space). */
function splitLong(word: string, w: number): string[] {
  if (stringWidth(word) <= w) return [word];
  const parts = word.match(/[^/,]*[/,]?/g)!.filter(Boolean);
  const out: string[] = [];
  let cur = '';
  for (const p of parts) {
    if (cur !== '' && stringWidth(cur + p) > w) {
      out.push(cur);
      cur = p;
    } else cur += p;
  }
  if (cur) out.push(cur);
  // Hard-cut what still does not fit.
  return out.flatMap((p) => hardCut(p, w)).map((p, i) => (i === 0 ? p : `\u200b${p}`));
}

/** `text` in pieces of at most `w` columns (a wide character is never split in two). */
export function hardCut(text: string, w: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of text) {
    if (cur !== '' && stringWidth(cur + ch) > w) {
      out.push(cur);
      cur = '';
    }
    cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

/** Wrap at word boundaries to `w` columns; a word longer than a line is split after '/' or ','. */
export function wrapText(str: string, w: number): string {
  if (w < 20) return str;
  return str
    .split('\n')
    .map((para) => {
      const words = para
        .split(/\s+/)
        .filter(Boolean)
        .flatMap((word) => splitLong(word, w));
      const lines: string[] = [];
      let cur = '';
      for (const word of words) {
        const glue = cur === '' || (/[/,]$/.test(cur) && word.startsWith('\u200b')) ? '' : ' ';
        const clean = word.replace(/^\u200b/, '');
        if (cur !== '' && stringWidth(cur + glue + clean) > w) {
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
      if (stringWidth(line) <= w) return line;
      const indent = /^\s*/.exec(line)![0];
      return wrapText(line.slice(indent.length), w - indent.length).replace(/^/gm, indent);
    })
    .join('\n');
}

/**
 * Text streamed to a terminal `width` columns wide (a chat reply as it arrives), wrapped at
 * word boundaries: a word that would cross the edge starts the next line instead of being
 * cut by the terminal. `push` returns what can be written now; `end` the rest.
 */
export class StreamWrap {
  private col = 0;
  private word = '';
  private space = '';

  constructor(private readonly width: number) {}

  push(text: string): string {
    let out = '';
    for (const ch of text) {
      if (ch === '\n') {
        out += this.flushWord() + '\n';
        this.col = 0;
        this.space = '';
      } else if (ch === ' ' || ch === '\t') {
        out += this.flushWord();
        this.space += ch;
      } else this.word += ch;
    }
    return out;
  }

  end(): string {
    return this.flushWord();
  }

  private flushWord(): string {
    if (this.word === '') return '';
    const w = stringWidth(this.word);
    let out = '';
    if (this.col > 0 && this.col + this.space.length + w > this.width) {
      out += '\n';
      this.col = 0;
    } else if (this.col > 0) {
      out += this.space;
      this.col += this.space.length;
    }
    // A word wider than the line is cut (only then).
    const pieces = w > this.width ? hardCut(this.word, this.width) : [this.word];
    out += pieces.join('\n');
    this.col = pieces.length > 1 ? stringWidth(pieces[pieces.length - 1]!) : this.col + w;
    this.word = '';
    this.space = '';
    return out;
  }
}
