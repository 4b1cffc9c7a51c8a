import { describe, expect, it } from 'vitest';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * A brain-only session (`--config '{"render": false}'`, docs/edge.md "brain-only"): the
 * edge's turns carry `brain: { name, reply, usage }`, and `sessions live` shows it, in the
 * NDJSON `turn` records and as a `brain:` line, over both protocols (docs/live.md).
 */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const env = () => emulatorEnv(h, { workspace: true });
const brainOnly = ['--config', '{"render": false}', '--say', 'Hello there', '--turns', '1'];
const events = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);

describe('sessions live --json, brain-only: the turn records carry the brain payload', () => {
  for (const protocol of ['1', '2']) {
    it(`protocol ${protocol}: the greeting and the reply each name the brain, its reply and its token counts`, async () => {
      const r = await cli(
        ['--json', 'sessions', 'live', '--persona', 'ava', '--protocol', protocol, ...brainOnly],
        env(),
      );
      expect(r.code, r.stderr).toBe(0);
      const turns = events(r.stdout).filter((e) => e.event === 'turn');
      expect(turns.map((t) => t.text)).toEqual(['', 'Hello there']);
      for (const t of turns) {
        expect(t.brain).toEqual({
          name: 'local',
          reply: t.reply,
          usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
        });
        expect(t.brain.usage.prompt_tokens).toBeGreaterThan(0);
        expect(t.brain.usage.completion_tokens).toBeGreaterThan(0);
      }
      expect(events(r.stdout).at(-1)).toMatchObject({
        event: 'ended',
        reason: 'turns_done',
        released: true,
      });
    }, 30_000);
  }

  it('a rendered session has no brain in its turns', async () => {
    const r = await cli(
      [
        '--json',
        'sessions',
        'live',
        '--persona',
        'ava',
        '--config',
        '{"greeting_enabled": false}',
        '--say',
        'Hello there',
        '--turns',
        '1',
      ],
      env(),
    );
    expect(r.code, r.stderr).toBe(0);
    const turn = events(r.stdout).find((e) => e.event === 'turn');
    expect(turn).toMatchObject({ text: 'Hello there' });
    expect(turn).not.toHaveProperty('brain');
  }, 30_000);
});

describe('sessions live on a pipe, brain-only', () => {
  it('prints a brain line under each avatar line: which brain and its token counts', async () => {
    const r = await cli(['sessions', 'live', '--persona', 'ava', ...brainOnly], env());
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const reply = lines.findIndex((l) => l.endsWith('] you: Hello there')) + 1;
    expect(lines[reply]).toMatch(/\] avatar: \S/);
    expect(lines[reply + 1]).toMatch(
      /^\[ *\d+\.\ds\] brain: local, [1-9]\d* prompt \+ [1-9]\d* completion tokens$/,
    );
    expect(lines.filter((l) => /\] brain: /.test(l))).toHaveLength(2);
  }, 30_000);
});
