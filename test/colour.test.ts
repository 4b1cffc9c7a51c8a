import { describe, expect, it } from 'vitest';
import { paintFor } from '../src/cli/views/colour.js';

describe('colours', () => {
  it('only on a terminal, and never with NO_COLOR (even empty)', () => {
    expect(paintFor({ isTTY: true }, {}).red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(paintFor({ isTTY: false }, {}).red('x')).toBe('x');
    expect(paintFor({ isTTY: true }, { NO_COLOR: '' }).green('x')).toBe('x');
    expect(paintFor({ isTTY: true }, { NO_COLOR: '1' }).dim('x')).toBe('x');
  });
});
