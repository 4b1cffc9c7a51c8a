/**
 * The sessions of one box, by id: opened on the first authenticated connect (which tells
 * the control plane: pending -> active), kept after their end for `keepEndedMs` so the
 * control plane can rebuild a transcript the store lacks (spec 4.5 `source: live`).
 */
import { type Clock, type TimerHandle } from '../../contract/clock.js';
import { EdgeSession, type EdgeSessionDeps } from '../session/edge-session.js';
import type { EndReason } from '../session/live-session.js';
import { readSnapshot } from '../session/snapshot.js';
import type { SessionClaims } from './session-token.js';

export class SessionRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface BoxSessionsDeps extends Omit<EdgeSessionDeps, 'hooks'> {
  clock: Clock;
  /** Report the connect to the control plane; false when it says the session is not live. */
  connect(sessionId: string): Promise<boolean>;
  ended(sessionId: string, reason: EndReason): void;
  keepEndedMs: number;
}

export class BoxSessions {
  private readonly sessions = new Map<string, EdgeSession>();
  private readonly opening = new Map<string, Promise<EdgeSession>>();
  private readonly evictions = new Set<TimerHandle>();

  constructor(private readonly d: BoxSessionsDeps) {}

  get(id: string): EdgeSession | undefined {
    return this.sessions.get(id);
  }

  /** Live (not ended) sessions. */
  live(): EdgeSession[] {
    return [...this.sessions.values()].filter((s) => !s.live.ended);
  }

  /** The session of these claims, opening it on first use; refused when it already ended. */
  async open(claims: SessionClaims): Promise<EdgeSession> {
    const have = this.sessions.get(claims.sub);
    if (have) {
      if (have.live.ended)
        throw new SessionRefused(
          410,
          'session_ended',
          `session ${claims.sub} has ended (${have.live.ended}); mint a new one`,
        );
      return have;
    }
    let p = this.opening.get(claims.sub);
    if (!p) {
      p = this.create(claims).finally(() => this.opening.delete(claims.sub));
      this.opening.set(claims.sub, p);
    }
    return p;
  }

  private async create(claims: SessionClaims): Promise<EdgeSession> {
    if (!(await this.d.connect(claims.sub))) {
      throw new SessionRefused(
        410,
        'session_ended',
        `session ${claims.sub} is no longer live (released, reaped or ended); mint a new one`,
      );
    }
    const snapshot = readSnapshot(claims);
    // spec 4.5: capture happens on recording-aware renderers only; say so rather than capture nothing silently.
    if (snapshot.recording && !this.d.captureRoot && snapshot.sessionLogs) {
      this.d.log(
        `session ${snapshot.id}: recording: true, but this box has no capture directory (start it with --data DIR); nothing is captured`,
      );
    }
    const s = await EdgeSession.open(snapshot, {
      ...this.d,
      hooks: {
        ended: (live, reason) => {
          this.d.ended(live.id, reason);
          const t = this.d.clock.setTimeout(() => {
            this.evictions.delete(t);
            this.sessions.delete(live.id);
          }, this.d.keepEndedMs);
          this.evictions.add(t);
        },
      },
    }).catch((err: unknown) => {
      // The control plane already has it active: end it there too, and say why.
      this.d.ended(snapshot.id, 'closed');
      if (snapshot.sessionLogs)
        this.d.log(`session ${snapshot.id} could not start: ${(err as Error).message}`);
      throw new SessionRefused(
        503,
        'render_failed',
        `the box could not start this session's media: ${(err as Error).message}`,
      );
    });
    this.sessions.set(claims.sub, s);
    return s;
  }

  /** The box stops: every live session ends (close code 1001). */
  endAll(reason: EndReason): void {
    for (const s of this.live()) s.live.end(reason);
    for (const t of this.evictions) t.cancel();
    this.evictions.clear();
  }
}
