import { createElement } from 'react';
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { LiveStore } from '../src/cli/live/live-state.js';
import { clock, LiveView, meter } from '../src/cli/views/live-view.js';

/** The `sessions live` ink view: what a user sees and types (ink-testing-library, no TTY needed). */
const tick = () => new Promise((r) => setTimeout(r, 60));

function setup() {
  const store = new LiveStore({
    sessionId: 'c0ffee00-1111-2222-3333-444455556666',
    label: 'ava',
    protocol: 1,
    capSeconds: 300,
    micLabel: 'microphone (sox)',
    output: 'play',
  });
  const sent: string[] = [];
  let quit = 0;
  const view = render(
    createElement(LiveView, {
      store,
      onSubmit: (t: string) => sent.push(t),
      onQuit: () => quit++,
      noColor: true,
    }),
  );
  return { store, sent, view, quits: () => quit };
}

describe('live view', () => {
  it('shows the session, the clock against cap_seconds and the transcript as it happens', async () => {
    const { store, view } = setup();
    expect(view.lastFrame()).toMatch(/ava · session c0ffee00 · protocol 1 · connecting…/);
    expect(view.lastFrame()).toMatch(/00:00 \/ 05:00/);
    store.update({ connected: true, elapsedS: 83.4 });
    store.update({ partial: 'what is the wea' });
    await tick();
    expect(view.lastFrame()).toMatch(/01:23 \/ 05:00/);
    expect(view.lastFrame()).toMatch(/you \(speaking\): what is the wea…/);
    store.update({ partial: '' });
    store.addLine('user', 'what is the weather');
    store.addLine('tool', 'weather: calling');
    store.addLine('avatar', 'Sunny and warm.');
    await tick();
    const frame = view.lastFrame()!;
    expect(frame).not.toMatch(/speaking\)/);
    const order = [
      'you: what is the weather',
      'tool: weather: calling',
      'avatar: Sunny and warm.',
    ].map((s) => frame.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    view.unmount();
  });

  it('the mic meter follows the level and says when the mic is gated', async () => {
    const { store, view } = setup();
    store.update({ mic: { label: 'microphone (sox)', levelDb: -30, gated: false } });
    await tick();
    expect(view.lastFrame()).toContain(`mic ${meter(-30)} -30 dB`);
    expect(meter(-30)).toBe('█'.repeat(10) + '░'.repeat(10));
    store.update({ mic: { label: 'microphone (sox)', levelDb: -6, gated: true }, speaking: true });
    await tick();
    expect(view.lastFrame()).toContain('█'.repeat(18));
    expect(view.lastFrame()).toMatch(/gated while the avatar speaks/);
    expect(view.lastFrame()).toMatch(/avatar is speaking/);
    view.unmount();
  });

  it('typed text is sent on Enter and the input clears; Ctrl-C asks to end', async () => {
    const { view, sent, quits } = setup();
    await tick();
    view.stdin.write('hello avatar');
    await tick();
    expect(view.lastFrame()).toMatch(/› hello avatar/);
    view.stdin.write('\r');
    await vi.waitFor(() => expect(sent).toEqual(['hello avatar']));
    await vi.waitFor(() => expect(view.lastFrame()).not.toMatch(/hello avatar/));
    view.stdin.write('\u0003');
    await vi.waitFor(() => expect(quits()).toBe(1));
    view.unmount();
  });

  it('text pasted with its newline (one chunk, as a terminal paste sends it) is sent, each line of it', async () => {
    const { view, sent } = setup();
    await tick();
    view.stdin.write('Hello there, who are you?\r');
    await vi.waitFor(() => expect(sent).toEqual(['Hello there, who are you?']));
    await vi.waitFor(() => expect(view.lastFrame()).not.toMatch(/who are you/));
    view.stdin.write('one\ntwo\nthr');
    await vi.waitFor(() => expect(sent).toEqual(['Hello there, who are you?', 'one', 'two']));
    // The unfinished last line stays in the input.
    await vi.waitFor(() => expect(view.lastFrame()).toMatch(/› thr/));
    view.unmount();
  });

  it('says why the session ended instead of the input', async () => {
    const { store, view } = setup();
    store.update({
      ended: { reason: 'cap_reached', detail: 'session_cap: cap_seconds (300 s) reached' },
    });
    await tick();
    // In words, as the line view says it (not the NDJSON reason code).
    expect(view.lastFrame()).toMatch(
      /ended: the session cap was reached \(session_cap: cap_seconds \(300 s\) reached\)/,
    );
    store.update({ ended: { reason: 'turns_done', detail: '1 turn' } });
    await tick();
    expect(view.lastFrame()).toMatch(/ended: the requested turns are done \(1 turn\)/);
    view.unmount();
  });

  it('--record: the last frame says where the file went', async () => {
    const { store, view } = setup();
    store.update({ recorded: { path: '/home/me/live.mp4', bytes: 512_000, remuxed: true } });
    store.update({ ended: { reason: 'turns_done', detail: '1 turn' } });
    await tick();
    expect(view.lastFrame()).toMatch(/recorded \/home\/me\/live\.mp4 \(500\.0 KB\)/);
    view.unmount();
  });

  it('clock formats minutes and seconds', () => {
    expect(clock(0)).toBe('00:00');
    expect(clock(299.9)).toBe('04:59');
    expect(clock(3600)).toBe('60:00');
  });
});
