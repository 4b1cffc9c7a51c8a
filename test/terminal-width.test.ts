import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { renderRecord, renderTable, wrap } from '../src/cli/output.js';
import { StreamWrap, fitLines, wrapText } from '../src/cli/wrap.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 19 items 3 and 4: the CLI measures text in terminal columns (a CJK character or an
 * emoji takes two), so wrapped lines, tables and a streamed chat reply fit the terminal.
 */
const h = useEmulator();
const widest = (text: string) => Math.max(...text.split('\n').map((l) => stringWidth(l)));

describe('terminal widths', () => {
  const cjk = '日本語のテキストは一文字が二列を使います。'.repeat(4);
  const emoji = 'hello 👋 world 🌍 '.repeat(10);

  it('wrapped CJK and emoji text fits the width', () => {
    expect(widest(wrap(cjk, 40).join('\n'))).toBeLessThanOrEqual(40);
    expect(widest(wrap(emoji, 30).join('\n'))).toBeLessThanOrEqual(30);
    expect(widest(wrapText(cjk, 40))).toBeLessThanOrEqual(40);
    expect(widest(fitLines(`error: ${cjk}`, 50))).toBeLessThanOrEqual(50);
    expect(widest(renderRecord({ name: cjk, note: emoji }, 60))).toBeLessThanOrEqual(60);
  });

  it('a table of CJK names drops the columns that would not fit', () => {
    const rows = [
      { name: '山田太郎の会社のアバター', id: 'a'.repeat(36), kind: 'custom', status: 'ready' },
    ];
    expect(widest(renderTable(rows, undefined, 60))).toBeLessThanOrEqual(60);
  });

  it('a streamed reply breaks between words, never inside one', () => {
    const sw = new StreamWrap(20);
    const text = 'the quick brown fox jumps over the lazy dog again and again';
    let out = '';
    // arrives in odd pieces, as tokens do
    for (let i = 0; i < text.length; i += 3) out += sw.push(text.slice(i, i + 3));
    out += sw.end();
    expect(widest(out)).toBeLessThanOrEqual(20);
    expect(out.replace(/\n/g, ' ')).toBe(text);
  });
});

describe('avatar chat on a terminal', () => {
  it('wraps the streamed reply on word boundaries', async () => {
    const env = emulatorEnv(h);
    const r = await cli(
      ['chat', 'Tell me about the weather and the sea in a few sentences'],
      env,
      undefined,
      16,
    );
    expect(r.code).toBe(0);
    const words = r.stdout.trim().split(/\s+/);
    expect(words.join(' ').length).toBeGreaterThan(16); // long enough to wrap at 16
    const lines = r.stdout.trimEnd().split('\n');
    expect(widest(lines.join('\n'))).toBeLessThanOrEqual(15);
    // every line break falls between two words of the reply
    for (const l of lines) for (const w of l.split(' ').filter(Boolean)) expect(words).toContain(w);
  });
});
