/**
 * One live session in a browser: the edge's sockets (v1 or v2, from the mint's
 * `protocol_version`), the video through MediaSource, the microphone, typed turns.
 * It knows nothing of the emulator: give it a mint response from the real service and it
 * works the same.
 */
import type { ClosedEvent, EdgeEvent } from '../contract/edge/events.js';
import { startMic, type MicCapture } from './mic.js';
import { MsePlayer, type PlayerOptions } from './player.js';
import { openV1, openV2, type EdgeSockets } from './sockets.js';

/** The fields of a mint response (spec 4.5) the browser needs; the rest stays on the server. */
export interface SessionGrant {
  connect_url: string;
  session_token: string;
  /** `2` when the mint negotiated v2 (`protocol_versions: [2]`); absent means v1. */
  protocol_version?: number;
}

/** Where a v1 typed turn goes: a relay URL (same origin as the page), or a function. */
export type ChatRelay =
  | string
  | ((req: { connect_url: string; session_token: string; text: string }) => Promise<void>);

export interface ConnectOptions {
  /** The element the avatar plays in; without one, media events still arrive. */
  video?: HTMLVideoElement;
  /** BCP-47 tag of the mic `hello` (default `en`). */
  lang?: string;
  /**
   * v1 typed turns: the edge's `POST /chat` sets no CORS headers (spec 4.6), so a page
   * cannot call it; a relay on the page's own server does (docs/browser.md). The URL gets
   * `POST { connect_url, session_token, text }` and should answer what the edge answered.
   * v2 sends typed turns on its socket and needs none.
   */
  chatRelay?: ChatRelay;
  player?: PlayerOptions;
}

export type SessionEvent =
  | EdgeEvent
  /** The microphone started or stopped. */
  | { type: 'mic'; on: boolean; input_rate?: number }
  /** The microphone's level for the last 100 ms frame, 0 to 1. */
  | { type: 'level'; level: number }
  /** The video could not play something (the page may show it). */
  | { type: 'player_problem'; detail: string };

export interface AvatarSession {
  readonly protocol: 1 | 2;
  /** Resolves once every socket is open (rejects if the edge refused). */
  readonly ready: Promise<void>;
  /** Resolves once, with why the session's connection ended. */
  readonly closed: Promise<ClosedEvent>;
  on(listener: (e: SessionEvent) => void): () => void;
  /** Ask for the microphone and stream it (call from a click: browsers want a gesture). */
  startMic(deviceId?: string): Promise<void>;
  stopMic(): Promise<void>;
  readonly micOn: boolean;
  /** A typed user turn (v2: on the socket; v1: through `chatRelay`). */
  chat(text: string): Promise<void>;
  /** Close the sockets (the edge then frees the seat, spec 3). */
  close(): Promise<ClosedEvent>;
}

export class ChatRelayError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`the chat relay answered ${status}: ${body.slice(0, 300)}`);
    this.name = 'ChatRelayError';
  }
}

export function connect(grant: SessionGrant, opts: ConnectOptions = {}): AvatarSession {
  const so = { connectUrl: grant.connect_url, token: grant.session_token, lang: opts.lang };
  const sockets: EdgeSockets = grant.protocol_version === 2 ? openV2(so) : openV1(so);
  const em = sockets.emitter;
  const extra = new Set<(e: SessionEvent) => void>();
  const tell = (e: SessionEvent) => {
    for (const l of [...extra]) {
      try {
        l(e);
      } catch {
        /* the listener's own problem */
      }
    }
  };
  let player: MsePlayer | undefined;
  let mic: MicCapture | undefined;

  if (opts.video) {
    const video = opts.video;
    em.on((e) => {
      if (e.type === 'media_init') {
        player?.close();
        const p = new MsePlayer(video, opts.player);
        player = p;
        p.onProblem = (detail) => tell({ type: 'player_problem', detail });
        // Bytes that arrive before the SourceBuffer exists wait in the player's queue, in order.
        p.start(e.mime).catch((err: Error) =>
          tell({ type: 'player_problem', detail: err.message }),
        );
      } else if (e.type === 'media') {
        player?.append(e.bytes);
      } else if (e.type === 'closed') {
        player?.close();
      }
    });
  }
  void em.closed.then(() => {
    void mic?.stop();
    mic = undefined;
  });

  return {
    protocol: sockets.protocol,
    ready: sockets.ready,
    closed: em.closed,
    on(listener) {
      const off = em.on(listener);
      extra.add(listener);
      return () => {
        off();
        extra.delete(listener);
      };
    },
    get micOn() {
      return mic !== undefined;
    },
    async startMic(deviceId) {
      if (mic) return;
      mic = await startMic({
        deviceId,
        onFrame: (f) => sockets.sendAudio(f),
        onLevel: (level) => tell({ type: 'level', level }),
      });
      tell({ type: 'mic', on: true, input_rate: mic.inputRate });
    },
    async stopMic() {
      const m = mic;
      mic = undefined;
      if (!m) return;
      await m.stop();
      tell({ type: 'mic', on: false });
    },
    async chat(text) {
      if (sockets.protocol === 2) return sockets.sendChat(text);
      const relay = opts.chatRelay;
      const req = { connect_url: grant.connect_url, session_token: grant.session_token, text };
      if (typeof relay === 'function') return relay(req);
      if (!relay)
        throw new Error(
          'a v1 session needs chatRelay for typed turns: the edge sets no CORS headers (docs/browser.md)',
        );
      const res = await fetch(relay, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(req),
      });
      if (!res.ok) throw new ChatRelayError(res.status, await res.text().catch(() => ''));
    },
    async close() {
      if (mic) await this.stopMic();
      sockets.close();
      return em.closed;
    },
  };
}
