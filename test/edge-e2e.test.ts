import { describe, expect, it } from 'vitest';
import { defaultVoice } from '../src/models/voice/index.js';
import { openSock, roundTrip, until, wsUrl, type Sock } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { SentenceSplitter } from '../src/edge/session/conversation.js';
import { firstWords } from '../src/edge/session/reply-speaker.js';
import { decodeAudio, voicedMs } from './helpers/media-audio.js';
import { speakSeeingPartial } from './helpers/utterance.js';

/**
 * Issue 8 "must show": mint, connect /mse + /mic_stream + /events, stream a synthesized
 * utterance as mic frames at real-time cadence, receive partial and turn, receive reply
 * media whose audio is as long as the spoken reply; release; the transcript returns the
 * turn; the session reads ended. The same over v2.
 */
const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });

/**
 * The stream's voiced audio once it stops growing: on a busy machine the reply's last
 * fragments can land after the `listening` status, so each look waits for three more
 * fragments (idle ones once the reply is all there) and the answer is the first repeat.
 */
async function settledVoicedMs(sock: Sock, media: (bin: Buffer[]) => Buffer[]): Promise<number> {
  let last = -1;
  for (;;) {
    await roundTrip(sock);
    const got = voicedMs(await decodeAudio(Buffer.concat(media(sock.bin))));
    if (got === last) return got;
    last = got;
    const n = sock.bin.length;
    await until(
      () => sock.bin.length,
      (k) => k >= n + 3,
      20_000,
    );
  }
}

async function replyAudioCheck(
  sock: Sock,
  reply: string,
  media: (bin: Buffer[]) => Buffer[] = (b) => b,
): Promise<void> {
  // The box speaks a reply sentence by sentence, its first sentence in two chunks
  // (firstWords); the same voice says the same chunks here.
  const split = new SentenceSplitter();
  const sentences = [...split.push(reply), ...split.flush()];
  const chunks = sentences.flatMap((s, i) => (i === 0 ? firstWords(s) : [s]));
  let want = 0;
  for (const c of chunks)
    want += voicedMs((await defaultVoice().synthesize(c, { lang: 'en' })).samples);
  const got = await settledVoicedMs(sock, media);
  // The stream's audio holds the whole reply and nothing else voiced (idle audio is silence).
  expect(want).toBeGreaterThan(1000);
  expect(
    Math.abs(got - want),
    `voiced ${got} ms in the stream, ${want} ms said here, for ${JSON.stringify(chunks)}`,
  ).toBeLessThanOrEqual(Math.max(200, want * 0.08));
}

describe('live session with media, end to end', () => {
  it('v1: /mse + /mic_stream + /events; a spoken turn; the reply as media as long as the spoken reply; release; transcript; ended', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { greeting_enabled: false } },
      })
    ).body;
    const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    const mime = await mse.next((x) => typeof x.mime === 'string');
    expect(mime.mime).toMatch(/^video\/mp4; codecs="avc1\.[0-9a-fA-F]{6}, ?mp4a\.40\.2"$/);
    await until(
      () => mse.bin.length,
      (n) => n >= 3,
    );
    expect(mse.bin[0]!.subarray(4, 8).toString()).toBe('ftyp');
    expect(mse.bin[1]!.subarray(4, 8).toString()).toBe('moof');

    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    await speakSeeingPartial(
      mic,
      'Hi there. I would like to know where you live, what you do during the day, and which places you like to visit.',
    );
    const turn = await mic.next((x) => x.type === 'turn', 20_000);
    expect(mic.json.some((x) => x.type === 'partial')).toBe(true);
    expect(turn).toMatchObject({ language: 'en', speech_id: expect.any(String) });
    expect(turn.reply.length).toBeGreaterThan(0);
    const spoke = await events.next((x) => x.type === 'status' && x.state === 'speaking', 20_000);
    await events.next(
      (x) => x.type === 'status' && x.state === 'listening' && x.session_ms > spoke.session_ms,
      30_000,
    );
    await replyAudioCheck(mse, turn.reply);

    await h.api(`/api/v1/sessions/${m.session_id}/release`, { body: { seat_token: m.seat_token } });
    expect((await mse.closed).code).toBe(4002);
    const t = await until(
      () => h.api(`/api/v1/sessions/${m.session_id}/transcript`),
      (r) => r.body.count === 1,
    );
    expect(t.body.turns[0]).toMatchObject({ user_text: turn.text, reply_text: turn.reply });
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('ended');
  }, 60_000);

  it('v2: the same on one socket (tagged media down, tagged mic up)', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'leo', protocol_versions: [2], config: { greeting_enabled: false } },
      })
    ).body;
    const s: Sock = await openSock(wsUrl(m.connect_url, '/v2/session', m.session_token), {
      protocols: ['svc.avatar.v2'],
    });
    const hello = await s.next((x) => x.type === 'session');
    expect(hello.mime).toMatch(/^video\/mp4; codecs="avc1/);
    await until(
      () => s.bin.length,
      (n) => n >= 3,
    );
    expect(s.bin.every((b) => b[0] === 0x01)).toBe(true);
    expect(s.bin[0]!.subarray(5, 9).toString()).toBe('ftyp');
    s.ws.send(JSON.stringify({ type: 'hello', lang: 'en' }));
    await speakSeeingPartial(
      s,
      'Good morning. Please tell me about your work, the people you help every day, and what you enjoy most about it.',
      0x02,
    );
    const turn = await s.next((x) => x.type === 'turn', 20_000);
    expect(s.json.some((x) => x.type === 'partial')).toBe(true);
    const spoke = await s.next((x) => x.type === 'status' && x.state === 'speaking', 20_000);
    await s.next(
      (x) => x.type === 'status' && x.state === 'listening' && x.session_ms > spoke.session_ms,
      30_000,
    );
    await replyAudioCheck(s, turn.reply, (bin) => bin.map((b) => b.subarray(1)));
    s.close();
    await until(
      () => h.api(`/api/v1/sessions/${m.session_id}`),
      (r) => r.body.status === 'ended',
    );
    const t = await h.api(`/api/v1/sessions/${m.session_id}/transcript`);
    expect(t.body).toMatchObject({
      source: 'store',
      count: 1,
      turns: [{ reply_text: turn.reply }],
    });
  }, 60_000);
});
