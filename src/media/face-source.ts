/**
 * A FaceSource is what the session stream and the clip renderers draw: a frame source
 * (the procedural persona face or an uploaded photo) plus its idle motion. Build one from a
 * persona's style or from photo bytes; both animate the mouth for talking frames.
 */
import type { FrameSource } from './clips.js';
import { FaceRenderer, idleState, type FaceStyle, type FrameState } from './face.js';
import { decodePhoto, PhotoRenderer, photoIdleState } from './photo.js';

export const DEFAULT_WIDTH = 352;
export const DEFAULT_HEIGHT = 480;

export interface FaceSource {
  readonly frames: FrameSource;
  /** Idle motion, looping seamlessly over `loopFrames`. */
  idle(frame: number, fps: number, loopFrames: number): FrameState;
  readonly kind: 'persona' | 'photo';
}

export function faceFromStyle(
  style: FaceStyle,
  width = DEFAULT_WIDTH,
  height = DEFAULT_HEIGHT,
): FaceSource {
  return { frames: new FaceRenderer(style, width, height), idle: idleState, kind: 'persona' };
}

/** An uploaded photo (jpeg/png/webp bytes), decoded once and cover-cropped to the frame. */
export async function faceFromPhoto(
  bytes: Uint8Array,
  width = DEFAULT_WIDTH,
  height = DEFAULT_HEIGHT,
  opts: { signal?: AbortSignal } = {},
): Promise<FaceSource> {
  const rgb = await decodePhoto(bytes, width, height, opts);
  return { frames: new PhotoRenderer(rgb, width, height), idle: photoIdleState, kind: 'photo' };
}
