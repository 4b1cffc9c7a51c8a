/**
 * The pluggable parts a box runs sessions with (ARCHITECTURE property 5): brain,
 * recognizer, VAD and voice from src/models, the media stream from src/media. The box is
 * handed them (the CLI and the emulator build them from `--llm-url`, `--asr-url`, ...),
 * so tests and benchmarks run the same coordinator with the same real parts.
 */
import type { EventEmitter } from 'node:events';
import type { Brain, Recognizer, Speech, Vad, Voice, VoiceShape } from '../../models/index.js';
import { type Clock } from '../../contract/clock.js';
import type { PostCommitStage } from './pipeline.js';
import type { SessionSnapshot } from './snapshot.js';

/** A reply being spoken on the media stream. */
export interface ReplyHandle {
  /** Cut the reply at the next fragment boundary; returns the milliseconds actually played. */
  interrupt(): number;
  /** Resolves when the reply finished playing (or was interrupted). */
  done: Promise<unknown>;
  /** Resolves when the reply's first fragment went out (or it ended unplayed). */
  started?: Promise<unknown>;
}

/** The session's continuous fMP4 stream (src/media): idle while listening, talking while replying. */
export interface SessionStream extends EventEmitter {
  ready(): Promise<void>;
  readonly mime: string;
  readonly initSegment: Buffer;
  speak(speech: Speech): ReplyHandle;
  readonly state: string;
  readonly clockMs: number;
  readonly bufferedMs: number;
  /** Fragments since the last keyframe, for a player joining now (src/media session stream). */
  readonly catchUp?: readonly Buffer[];
  close(): void;
}

/** Everything media needs to render this session's avatar (face, idle loop, voice shape). */
export interface MediaRequest {
  snapshot: SessionSnapshot;
  clock: Clock;
  /** Fetch one of the version's media blobs through the internal box API (spec 4.7). */
  fetchMedia(kind: 'face' | 'idle' | 'voice'): Promise<Buffer | null>;
}

export interface EdgeParts {
  brain: Brain;
  recognizer: Recognizer;
  /** A fresh VAD per session (it keeps state). */
  vad?: () => Vad | Promise<Vad>;
  voice?: Voice;
  /** The voice shape of this session (pitch and pace measured from a custom avatar's sample). */
  voiceShape?: (req: MediaRequest) => Promise<VoiceShape | undefined>;
  /** Build the session's media stream; absent means the box renders nothing (brain-only boxes). */
  media?: (req: MediaRequest) => Promise<SessionStream>;
  /** The post-commit stages of a session as it opens (docs/turns.md "The post-commit slot"; e.g. the tools lifecycle). */
  stages?: (snapshot: SessionSnapshot) => PostCommitStage[];
  /** Told as each session opens (the parts' once-per-language notices; default-parts.ts). */
  opened?: (snapshot: SessionSnapshot) => void;
}
