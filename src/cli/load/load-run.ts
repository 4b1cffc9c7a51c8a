/**
 * `avatar load-test` (issue 18 item 8): N live sessions driven concurrently by this one
 * event loop, each through the client layer only: mint through the queue (mintAndWait),
 * connect the edge (connectEdge, v1 or v2), then talk in turns (the mic clip at real-time
 * cadence, and/or a typed line) until the run ends, then release the seat. Every timing is
 * collected for src/cli/load/stats.ts. One 100 ms ticker sends every session's mic frame.
 */
import { setMaxListeners } from 'node:events';
import { ApiResponseError, type AvatarClient } from '../../client/client.js';
import { connectEdge } from '../../client/edge-connect.js';
import type { EdgeConnection, EdgeEvent } from '../../client/edge-events.js';
import { MIC_FRAME_MS } from '../../client/edge-events.js';
import { MicPump, realPacerClock, type PacerClock } from '../../client/edge-mic.js';
import { EdgeChatError, EdgeClosedError } from '../../client/edge-v1.js';
import { mintAndWait } from '../../client/mint-queue.js';
import { releaseSession } from '../../contract/operations/sessions.js';
import type { MintReady } from '../../contract/resources/session.js';
import { summarize, TIMINGS, type LoadFigures, type TimingName } from './stats.js';

export interface LoadOptions {
  client: AvatarClient;
  sessions: number;
  /** Sessions start evenly spread over this many seconds. */
  rampS: number;
  /** How long every session keeps talking once the ramp is over. */
  durationS: number;
  mintBody: Record<string, unknown>;
  protocol: 1 | 2;
  /** 16 kHz mono PCM16 spoken as each mic turn. */
  micPcm?: Buffer;
  /** Typed as each typed turn. */
  say?: string;
  /**
   * Each session ends (and frees its seat) after this many turns, and its user mints a new
   * one at once, until the run is over; unset, every session holds its seat to the end.
   */
  turnsPerSession?: number;
  lang: string;
  origin?: string;
  clock?: PacerClock;
  /** A turn with no answer for this long is an error (`turn_timeout`); default 30 s. */
  turnTimeoutMs?: number;
  /** A gap between media fragments longer than this is a late fragment; default 400 ms. */
  lateGapMs?: number;
  onProgress?(p: LoadProgress): void;
  signal?: AbortSignal;
}

export interface LoadProgress {
  elapsedS: number;
  started: number;
  queued: number;
  live: number;
  done: number;
  turns: number;
  errors: number;
  turnP50: number | null;
}

type Samples = Record<TimingName, number[]>;

class TurnTimeout extends Error {
  constructor(what: string) {
    super(what);
    this.name = 'TurnTimeout';
  }
}

/** An error as the code a report counts it under. */
export function errorCode(e: unknown): string {
  if (e instanceof ApiResponseError) return e.code.split(':')[0]!;
  if (e instanceof EdgeClosedError)
    return e.event.reason === 'refused'
      ? `edge_refused_${e.event.code ?? 0}`
      : `edge_${e.event.reason}`;
  if (e instanceof EdgeChatError) return `chat_http_${e.status}`;
  if (e instanceof TurnTimeout) return 'turn_timeout';
  const code =
    (e as { code?: unknown; cause?: { code?: unknown } })?.cause?.code ??
    (e as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'client_error';
}

export async function runLoad(o: LoadOptions): Promise<LoadFigures & { elapsed_s: number }> {
  const clock = o.clock ?? realPacerClock;
  const turnTimeoutMs = o.turnTimeoutMs ?? 30_000;
  const lateGapMs = o.lateGapMs ?? 400;
  const t0 = clock.now();
  const endAt = t0 + (o.rampS + o.durationS) * 1000;
  const samples = Object.fromEntries(TIMINGS.map((t) => [t, [] as number[]])) as Samples;
  const errors: Record<string, number> = {};
  const counts = { late_fragments: 0, unseated: 0, turns: 0 };
  const st = { started: 0, queued: 0, live: 0, done: 0 };
  const fail = (code: string) => (errors[code] = (errors[code] ?? 0) + 1);
  const stop = new AbortController();
  // Every session's waits listen on this one signal.
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(o.signal?.reason);
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const over = () => stop.signal.aborted || clock.now() >= endAt;
  // The run's end as a promise every wait races against.
  const ended = (async () => {
    await clock.sleep(Math.max(0, endAt - clock.now()), stop.signal);
    if (!stop.signal.aborted) stop.abort(new Error('run over'));
  })();

  // One ticker for every session's uplink (spec 4.6: a frame per 100 ms each).
  const pumps = new Set<MicPump>();
  const ticker = (async () => {
    for (let n = 1; !stop.signal.aborted; n++) {
      const wait = t0 + n * MIC_FRAME_MS - clock.now();
      if (wait > 0) await clock.sleep(wait, stop.signal);
      for (const p of pumps) p.tick();
    }
  })();
  const progress = (async () => {
    if (!o.onProgress) return;
    while (!stop.signal.aborted) {
      o.onProgress(snapshot());
      await clock.sleep(500, stop.signal);
    }
  })();
  function snapshot(): LoadProgress {
    const errs = Object.values(errors).reduce((a, b) => a + b, 0);
    return {
      elapsedS: (clock.now() - t0) / 1000,
      ...st,
      turns: counts.turns,
      errors: errs,
      turnP50: summarize(samples.turn).p50,
    };
  }

  /** One user: a session, and with turnsPerSession the next one, until the run is over. */
  async function user(i: number): Promise<void> {
    const startIn = o.sessions > 1 ? (o.rampS * 1000 * i) / (o.sessions - 1) : 0;
    await clock.sleep(t0 + startIn - clock.now(), stop.signal);
    while (!over()) {
      if (!(await session()) || !o.turnsPerSession) break;
    }
  }

  /** One session: mint, talk, release; false when it failed before it could talk. */
  async function session(): Promise<boolean> {
    st.started++;
    const tMint = clock.now();
    let firstAnswer: number | undefined;
    let queuedAt: number | undefined;
    let minted: MintReady & { protocol_version?: number };
    try {
      const res = await mintAndWait(o.client, o.mintBody, {
        signal: stop.signal,
        sleep: (ms, signal) => clock.sleep(ms, signal).then(() => signal?.throwIfAborted()),
        onQueued: () => {
          firstAnswer ??= clock.now();
          if (queuedAt === undefined) {
            queuedAt = clock.now();
            st.queued++;
          }
        },
      });
      minted = res.body as typeof minted;
    } catch (e) {
      if (queuedAt !== undefined) st.queued--;
      if (stop.signal.aborted) counts.unseated++;
      else fail(errorCode(e));
      return false;
    }
    const seated = clock.now();
    samples.mint.push((firstAnswer ?? seated) - tMint);
    if (queuedAt !== undefined) {
      samples.queue_wait.push(seated - queuedAt);
      st.queued--;
    }
    st.live++;
    try {
      return await talk(minted);
    } finally {
      st.live--;
      st.done++;
      await o.client
        .call(releaseSession, {
          params: { sessionId: minted.session_id },
          body: { seat_token: minted.seat_token },
        })
        .catch((e) => fail(`release_${errorCode(e)}`));
    }
  }

  async function talk(minted: MintReady & { protocol_version?: number }): Promise<boolean> {
    const tConnect = clock.now();
    const renders = !(
      o.mintBody.config && (o.mintBody.config as Record<string, unknown>).render === false
    );
    let conn: EdgeConnection;
    const waiters = new Set<(e: EdgeEvent, at: number) => void>();
    let lastMedia: number | undefined;
    let closedByUs = false;
    try {
      conn = await connectEdge({
        connectUrl: minted.connect_url,
        token: minted.session_token,
        protocol: minted.protocol_version === 2 ? 2 : 1,
        lang: o.lang,
        origin: o.origin,
      });
      conn.on((e) => {
        const at = clock.now();
        if (e.type === 'media') {
          if (lastMedia === undefined) samples.first_media.push(at - tConnect);
          else if (at - lastMedia > lateGapMs) counts.late_fragments++;
          lastMedia = at;
        } else if (e.type === 'error') {
          const code = e.error.split(':')[0]!;
          // A brain-only session says once that it has no media: what was asked, not an error.
          if (renders || code !== 'render_disabled') fail(`edge:${code}`);
        } else if (e.type === 'closed' && !closedByUs && !over())
          fail(e.reason === 'refused' ? `edge_refused_${e.code ?? 0}` : `closed_${e.reason}`);
        for (const w of [...waiters]) w(e, at);
      });
      await conn.ready;
    } catch (e) {
      fail(errorCode(e));
      return false;
    }
    samples.connect.push(clock.now() - tConnect);
    // Wait for an event (or the run's end: undefined); a timeout is a TurnTimeout.
    const waitFor = (pred: (e: EdgeEvent) => boolean, what: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        let done = false;
        const timer = new AbortController();
        const onStop = () => finish(undefined);
        const finish = (v: number | undefined, err?: Error) => {
          if (done) return;
          done = true;
          waiters.delete(w);
          stop.signal.removeEventListener('abort', onStop);
          timer.abort();
          if (err) reject(err);
          else resolve(v);
        };
        const w = (e: EdgeEvent, at: number) => {
          if (pred(e)) finish(at);
          else if (e.type === 'closed') finish(undefined);
        };
        waiters.add(w);
        if (stop.signal.aborted) return finish(undefined);
        void clock
          .sleep(turnTimeoutMs, timer.signal)
          .then(() => finish(undefined, timer.signal.aborted ? undefined : new TurnTimeout(what)));
        stop.signal.addEventListener('abort', onStop, { once: true });
      });
    const userTurn = (e: EdgeEvent) => e.type === 'turn' && e.greeting !== true;
    const started = (e: EdgeEvent) => e.type === 'speech' && e.status === 'started';
    const listening = (e: EdgeEvent) =>
      e.type === 'telemetry' && e.frame.type === 'status' && e.frame.state === 'listening';
    let speechEnd: ((at: number) => void) | undefined;
    const pump = new MicPump({
      send: (f) => conn.sendAudio(f),
      onFrame: (info) => {
        if (info.fromSource && pump.pendingMs === 0) speechEnd?.(clock.now());
      },
    });
    pump.end(); // each clip is fed whole; silence between clips
    pumps.add(pump);
    let closedEarly = false;
    void conn.closed.then(() => (closedEarly = !closedByUs));
    let mine = 0;
    const more = () =>
      !over() && !closedEarly && (o.turnsPerSession === undefined || mine < o.turnsPerSession);
    try {
      while (more()) {
        if (o.micPcm) {
          const endOfSpeech = new Promise<number>((r) => (speechEnd = r));
          const turn = waitFor(userTurn, 'turn after the mic clip');
          const spoke = renders ? waitFor(started, 'reply after the mic clip') : undefined;
          pump.feed(o.micPcm);
          const [end, at] = await Promise.all([
            Promise.race([endOfSpeech, ended.then(() => undefined)]),
            turn,
          ]);
          speechEnd = undefined;
          if (at === undefined || end === undefined) break;
          counts.turns++;
          mine++;
          samples.turn.push(Math.max(0, at - end));
          if (spoke && (await spoke) === undefined) break;
          if (renders && (await waitFor(listening, 'end of the reply')) === undefined) break;
        }
        if (o.say !== undefined && more()) {
          const tc = clock.now();
          const turn = waitFor(userTurn, 'turn after /chat');
          const spoke = renders ? waitFor(started, 'reply after /chat') : undefined;
          await conn.chat(o.say);
          const at = await turn;
          if (at === undefined) break;
          counts.turns++;
          mine++;
          if (spoke) {
            const s = await spoke;
            if (s === undefined) break;
            samples.chat_first_speech.push(s - tc);
            if ((await waitFor(listening, 'end of the reply')) === undefined) break;
          }
        }
      }
    } catch (e) {
      if (!over()) fail(errorCode(e));
      return false;
    } finally {
      pumps.delete(pump);
      closedByUs = true;
      await conn.close();
    }
    return !closedEarly;
  }

  await Promise.all(Array.from({ length: o.sessions }, (_, i) => user(i)));
  stop.abort(new Error('run over'));
  await Promise.all([ended, ticker, progress]);
  o.signal?.removeEventListener('abort', onAbort);
  const timings = Object.fromEntries(
    TIMINGS.map((t) => [t, summarize(samples[t])]),
  ) as LoadFigures['timings'];
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  return {
    timings,
    counts: { ...counts, errors: errorCount },
    errors,
    elapsed_s: Math.round((clock.now() - t0) / 100) / 10,
  };
}
