import { describe, expect, expectTypeOf, it } from 'vitest';
import { Command } from '../src/cli/commander.js';
import type { CliContext } from '../src/cli/context.js';
import { addCommand, defineCommand } from '../src/cli/define.js';

/**
 * `defineCommand`: the types of `run`'s options and args come from the option table (no
 * hand-written option types), and the commander command built from it parses argv into
 * exactly those values. The type half is checked by `tsc -p tsconfig.test.json`.
 */
const seen: unknown[] = [];
const def = defineCommand({
  name: 'rank',
  summary: 'rank things',
  args: { query: '<query>', docs: { usage: '<docs...>', description: 'documents' } },
  options: {
    topN: { flags: '--top-n <n>', description: 'keep the best n' },
    model: { flags: '--model <id>', description: 'model id', default: 'm1' },
    stream: { flags: '--no-stream', description: 'wait for the whole reply' },
    scope: { flags: '--scope <s...>', description: 'scopes', default: ['a'] },
    count: { flags: '--count <n>', description: 'a number', parse: (v: string) => Number(v) },
    out: { flags: '-o, --out <file>', description: 'where', required: true },
    follow: { flags: '--follow', description: 'follow' },
  },
  run({ options, args }) {
    expectTypeOf(options.topN).toEqualTypeOf<string | undefined>();
    expectTypeOf(options.model).toEqualTypeOf<string>();
    expectTypeOf(options.stream).toEqualTypeOf<boolean>();
    expectTypeOf(options.scope).toEqualTypeOf<string[]>();
    expectTypeOf(options.count).toEqualTypeOf<number | undefined>();
    expectTypeOf(options.out).toEqualTypeOf<string>();
    expectTypeOf(options.follow).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(args.query).toEqualTypeOf<string>();
    expectTypeOf(args.docs).toEqualTypeOf<string[]>();
    seen.push({ options, args });
  },
});

const program = () => {
  const p = new Command('t').exitOverride();
  p.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  return p;
};

describe('defineCommand', () => {
  it('parses argv into the values its types promise', async () => {
    const p = program();
    addCommand(p, def, {} as CliContext);
    seen.length = 0;
    await p.parseAsync(
      ['rank', 'q', 'd1', 'd2', '--top-n', '2', '--no-stream', '--count', '7', '-o', 'x.png'],
      { from: 'user' },
    );
    expect(seen).toEqual([
      {
        args: { query: 'q', docs: ['d1', 'd2'] },
        options: {
          topN: '2',
          model: 'm1',
          stream: false,
          scope: ['a'],
          count: 7,
          out: 'x.png',
        },
      },
    ]);
  });

  it('a required option missing is commander usage error, and the help lists every flag', async () => {
    const p = program();
    const cmd = addCommand(p, def, {} as CliContext);
    await expect(p.parseAsync(['rank', 'q', 'd'], { from: 'user' })).rejects.toThrow(
      /required option '-o, --out <file>' not specified/,
    );
    const help = cmd.helpInformation();
    for (const f of ['--top-n <n>', '--model <id>', '--no-stream', '-o, --out <file>'])
      expect(help).toContain(f);
    expect(help).toContain('(default: "m1")');
  });

  it('a table key that is not the flag’s attribute name fails when the command is built', () => {
    const bad = defineCommand({
      name: 'bad',
      summary: 'x',
      options: { top: { flags: '--top-n <n>', description: 'keep the best n' } },
    });
    expect(() => addCommand(program(), bad, {} as CliContext)).toThrow(
      'option --top-n <n> must be keyed topN (got top)',
    );
  });
});
