import { describe, expect, it } from 'vitest';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * The global `--origin` goes on the edge sockets (both protocols) and `POST /chat`, not only
 * to the control plane: the box checks it against the mint's domain_allowlist (docs/edge.md;
 * test/edge-origin.test.ts), so the CLI is refused exactly where a browser on that page
 * would be, and a listed origin connects.
 */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const env = () => emulatorEnv(h, { workspace: true });
const live = (origin: string, ...more: string[]) =>
  cli(
    [
      '--origin',
      origin,
      ...more,
      'sessions',
      'live',
      '--persona',
      'ava',
      '--domain-allowlist',
      'https://app.example.com',
      '--config',
      '{"render": false}',
      '--say',
      'Hello there',
      '--turns',
      '1',
    ],
    env(),
  );
const events = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);

describe('sessions live --origin against a domain_allowlist', () => {
  it('an origin outside the allowlist is refused with the edge error (exit 3), says what to do, and frees the seat', async () => {
    const r = await live('https://evil.example');
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /ended: the edge refused the connection \(HTTP 403 origin_not_allowed: origin https:\/\/evil\.example is not in this session's domain_allowlist/,
    );
    expect(r.stdout).toMatch(/0 turns; seat released/);
    expect(r.stdout).not.toMatch(/connected to the edge/);
    expect(r.stderr.trim()).toBe(
      "the edge refused --origin https://evil.example: the session's domain_allowlist (https://app.example.com) does not list it, as a browser on that page would be refused; add it to --domain-allowlist, or send the --origin of a listed page",
    );
  }, 30_000);

  for (const protocol of ['1', '2']) {
    it(`protocol ${protocol}, --json: the ended record says refused with the edge's code; the session never became active`, async () => {
      const r = await cli(
        [
          '--json',
          '--origin',
          'https://evil.example',
          'sessions',
          'live',
          '--persona',
          'ava',
          '--protocol',
          protocol,
          '--domain-allowlist',
          'https://app.example.com',
          '--config',
          '{"render": false}',
          '--say',
          'Hi',
          '--turns',
          '1',
        ],
        env(),
      );
      expect(r.code).toBe(3);
      const ev = events(r.stdout);
      expect(ev.at(-1)).toMatchObject({
        event: 'ended',
        reason: 'refused',
        detail: expect.stringMatching(
          /^HTTP 403 origin_not_allowed: origin https:\/\/evil\.example /,
        ),
        turns: 0,
        released: true,
      });
      expect(ev.some((e) => e.event === 'connected' || e.event === 'turn')).toBe(false);
      const session = await h.api(`/api/v1/sessions/${ev[0]!.session_id}`);
      expect(session.body.status).not.toBe('active');
    }, 30_000);
  }

  it('a listed origin connects and talks (its typed turn goes through POST /chat with that Origin)', async () => {
    const r = await live('https://app.example.com', '--json');
    expect(r.code, r.stderr).toBe(0);
    const ev = events(r.stdout);
    expect(ev.find((e) => e.event === 'turn' && e.text === 'Hello there')).toMatchObject({
      reply: expect.stringMatching(/\S/),
    });
    expect(ev.at(-1)).toMatchObject({
      event: 'ended',
      reason: 'turns_done',
      turns: 1,
      released: true,
    });
  }, 30_000);
});
