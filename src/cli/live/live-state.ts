import type { LiveEndReason } from './live-log.js';

/**
 * What the live view shows, as one immutable snapshot behind subscribe/getSnapshot (React's
 * useSyncExternalStore): the runner writes it, the ink view renders it.
 */
export type LineKind = 'user' | 'avatar' | 'tool' | 'info' | 'error';

export interface LiveLine {
  id: number;
  kind: LineKind;
  text: string;
}

export interface LiveState {
  sessionId: string;
  /** Persona or avatar id, for the header. */
  label: string;
  protocol: 1 | 2;
  capSeconds: number;
  /** Seconds since the sockets opened. */
  elapsedS: number;
  connected: boolean;
  lines: LiveLine[];
  /** The user's interim transcript (spec 6.1 `partial`), cleared by the turn. */
  partial: string;
  mic: { label: string | null; levelDb: number; gated: boolean };
  /** The avatar is audibly speaking (decoded reply audio). */
  speaking: boolean;
  media: { bytes: number; segments: number };
  output: string | null;
  ended: { reason: LiveEndReason; detail?: string } | null;
  /** Where `--record` put the file, once it is written. */
  recorded: { path: string; bytes: number; remuxed: boolean; error?: string } | null;
}

export const MAX_LINES = 200;

export class LiveStore {
  private state: LiveState;
  private readonly subs = new Set<() => void>();
  private nextId = 1;

  constructor(
    init: Pick<LiveState, 'sessionId' | 'label' | 'protocol' | 'capSeconds'> & {
      micLabel: string | null;
      output: string | null;
    },
  ) {
    this.state = {
      ...init,
      elapsedS: 0,
      connected: false,
      lines: [],
      partial: '',
      mic: { label: init.micLabel, levelDb: -Infinity, gated: false },
      speaking: false,
      media: { bytes: 0, segments: 0 },
      ended: null,
      recorded: null,
    };
  }

  subscribe = (fn: () => void): (() => void) => {
    this.subs.add(fn);
    return () => this.subs.delete(fn);
  };

  getSnapshot = (): LiveState => this.state;

  update(patch: Partial<LiveState>): void {
    this.state = { ...this.state, ...patch };
    for (const fn of this.subs) fn();
  }

  addLine(kind: LineKind, text: string): void {
    const lines = [...this.state.lines, { id: this.nextId++, kind, text }];
    this.update({ lines: lines.length > MAX_LINES ? lines.slice(-MAX_LINES) : lines });
  }
}
