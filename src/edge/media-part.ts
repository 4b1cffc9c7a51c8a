/**
 * How a box builds a session's media (src/media session stream): the face is the stock
 * persona's procedural style (fixtures/personas/personas.json, shipped with the package)
 * or, for a custom avatar, its uploaded photo; the idle loop is the version's pre-built
 * loop (spec 4.7: fetched through the internal box API, `null` while it is still
 * building, when the stream shows a still loop). Versions are immutable, so faces and
 * loops are cached per version id.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  createSessionStream,
  decodeAudio,
  faceFromPhoto,
  faceFromStyle,
  hexToRgb,
  loadIdleLoop,
  type FaceSource,
  type FaceStyle,
  type IdleLoop,
} from '../media/index.js';
import type { VoiceShape } from '../models/index.js';
import { voiceShapeFromSample } from '../models/voice/index.js';
import type { MediaRequest, SessionStream } from './session/parts.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/personas/personas.json', import.meta.url));

interface PersonaEntry {
  id: string;
  accent: string;
  style: Record<string, string>;
}

let styles: Map<string, FaceStyle> | null = null;
function personaStyle(key: string): FaceStyle | null {
  styles ??= new Map(
    (JSON.parse(readFileSync(FIXTURES, 'utf8')) as { personas: PersonaEntry[] }).personas.map(
      (p) => [
        p.id,
        {
          background: hexToRgb(p.style.background!),
          accent: hexToRgb(p.accent),
          skin: hexToRgb(p.style.skin!),
          hair: hexToRgb(p.style.hair!),
          hairStyle: (p.style.hairStyle ?? 'short') as FaceStyle['hairStyle'],
          shirt: hexToRgb(p.style.shirt!),
          iris: hexToRgb(p.style.iris!),
          lips: hexToRgb(p.style.lips!),
        },
      ],
    ),
  );
  return styles.get(key) ?? null;
}

const faces = new Map<string, Promise<FaceSource>>();
const loops = new Map<string, IdleLoop>();

async function faceOf(req: MediaRequest): Promise<FaceSource> {
  const a = req.snapshot.avatar;
  const style = a.kind === 'stock' && a.persona ? personaStyle(a.persona) : null;
  if (style) return faceFromStyle(style);
  const key = a.versionId ?? req.snapshot.id;
  let f = faces.get(key);
  if (!f) {
    f = (async () => {
      const photo = await req.fetchMedia('face');
      if (photo) return faceFromPhoto(photo);
      const fallback = a.persona ? personaStyle(a.persona) : null;
      if (fallback) return faceFromStyle(fallback);
      throw new Error('the avatar version has no face image');
    })();
    faces.set(key, f);
    f.catch(() => faces.delete(key));
  }
  return f;
}

async function idleOf(req: MediaRequest): Promise<IdleLoop | null> {
  const key = req.snapshot.avatar.versionId;
  if (key && loops.has(key)) return loops.get(key)!;
  const bytes = await req.fetchMedia('idle').catch(() => null);
  if (!bytes) return null;
  let loop: IdleLoop;
  try {
    loop = loadIdleLoop(bytes);
  } catch {
    return null; // not a loop this stream can splice (docs/media.md): the still loop plays
  }
  if (key) loops.set(key, loop);
  return loop;
}

/** How often a session without an idle loop asks for it again (it is still building). */
export const IDLE_RETRY_MS = 10_000;

export async function sessionMedia(req: MediaRequest): Promise<SessionStream> {
  const [face, idle] = await Promise.all([faceOf(req), idleOf(req)]);
  const stream = createSessionStream({ face, idle });
  if (!idle && req.snapshot.avatar.versionId) {
    // The loop became ready mid-session (assets_status -> ready): the stream swaps it in.
    let closed = false;
    stream.once('close', () => (closed = true));
    const retry = () =>
      req.clock.setTimeout(() => {
        if (closed) return;
        void idleOf(req).then((loop) => (loop ? stream.setIdle(loop) : !closed && retry()));
      }, IDLE_RETRY_MS);
    retry();
  }
  return stream as unknown as SessionStream;
}

/** A custom avatar's voice sample shapes the voice (measured pitch and pace): any format ffmpeg reads. */
export async function sessionVoiceShape(req: MediaRequest): Promise<VoiceShape | undefined> {
  if (req.snapshot.avatar.kind !== 'custom' || !req.snapshot.avatar.media.voice) return undefined;
  const bytes = await req.fetchMedia('voice').catch(() => null);
  if (!bytes) return undefined;
  const samples = await decodeAudio(bytes, 16000, { maxSeconds: 60 }).catch(() => null);
  return samples && samples.length > 0
    ? (voiceShapeFromSample(samples, 16000) ?? undefined)
    : undefined;
}
