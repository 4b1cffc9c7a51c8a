/**
 * Plays the edge's fMP4 (spec 4.6: `/mse`, or v2's tagged media) through MediaSource, with
 * the pitfalls handled:
 *
 * - the `mime` comes from the stream (`media_init`), never hard-coded, and is checked with
 *   `isTypeSupported` first;
 * - only whole ISO-BMFF boxes are appended (bytes are gathered until a box is complete);
 * - appends are queued while the SourceBuffer is updating;
 * - a live edge: a late joiner's first range starts after 0 (seek to it), and after a stall
 *   (tab in the background, slow network) the player jumps back to `liveLatency` behind the
 *   buffered end instead of playing ever further behind;
 * - played media is removed from the buffer (a session can last an hour) and a full buffer
 *   (`QuotaExceededError`) is trimmed and retried;
 * - `ManagedMediaSource` (Safari on iPhone) where `MediaSource` is absent.
 */

export interface PlayerOptions {
  /** Seconds behind the buffered end the player aims for when it catches up (default 0.3). */
  liveLatency?: number;
  /** How far behind the live edge playback may fall before it jumps (default 1.5 s). */
  maxLag?: number;
  /** Seconds of played media kept in the buffer (default 20). */
  keepSeconds?: number;
}

type MediaSourceCtor = { new (): MediaSource; isTypeSupported(type: string): boolean };

/** `MediaSource`, or `ManagedMediaSource` where only that exists (iOS Safari 17.1+). */
export function mediaSourceClass(): MediaSourceCtor | undefined {
  const g = globalThis as unknown as {
    MediaSource?: MediaSourceCtor;
    ManagedMediaSource?: MediaSourceCtor;
  };
  return g.MediaSource ?? g.ManagedMediaSource;
}

/** Length of the complete boxes at the start of `b` (0 when the first box is not whole yet). */
export function wholeBoxesLength(b: Uint8Array): number {
  let at = 0;
  while (b.length - at >= 8) {
    const v = new DataView(b.buffer, b.byteOffset + at, b.length - at);
    let size = v.getUint32(0);
    if (size === 1) {
      if (b.length - at < 16) break;
      size = Number(v.getBigUint64(8));
    }
    if (size < 8) throw new Error(`bad ISO-BMFF box size ${size} at byte ${at}`);
    if (b.length - at < size) break;
    at += size;
  }
  return at;
}

export class MsePlayer {
  private readonly opts: Required<PlayerOptions>;
  private ms: MediaSource | undefined;
  private sb: SourceBuffer | undefined;
  private pending: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  private readonly queue: Uint8Array<ArrayBuffer>[] = [];
  private url: string | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private playing = false;
  private blocked = false;
  /** Problems the page may want to show (append failures, autoplay refused). */
  onProblem: (what: string) => void = () => undefined;

  constructor(
    readonly video: HTMLVideoElement,
    opts: PlayerOptions = {},
  ) {
    this.opts = {
      liveLatency: opts.liveLatency ?? 0.3,
      maxLag: opts.maxLag ?? 1.5,
      keepSeconds: opts.keepSeconds ?? 20,
    };
  }

  /** Create the MediaSource and its SourceBuffer for `mime` (the stream's first message). */
  async start(mime: string): Promise<void> {
    const MS = mediaSourceClass();
    if (!MS) throw new Error('this browser has no MediaSource (nor ManagedMediaSource)');
    if (!MS.isTypeSupported(mime)) throw new Error(`this browser cannot play ${mime}`);
    const ms = new MS();
    this.ms = ms;
    // ManagedMediaSource only opens with remote playback (AirPlay) disabled.
    (this.video as HTMLVideoElement & { disableRemotePlayback: boolean }).disableRemotePlayback =
      true;
    this.url = URL.createObjectURL(ms);
    this.video.src = this.url;
    await new Promise<void>((resolve) =>
      ms.addEventListener('sourceopen', () => resolve(), { once: true }),
    );
    const sb = ms.addSourceBuffer(mime);
    sb.mode = 'segments';
    sb.addEventListener('updateend', () => this.feed());
    sb.addEventListener('error', () => this.onProblem('the SourceBuffer reported an error'));
    this.sb = sb;
    this.timer = setInterval(() => this.keepLive(), 250);
    this.feed();
  }

  /** Bytes of the stream, in arrival order (split anywhere: only whole boxes are appended). */
  append(bytes: Uint8Array): void {
    const all = new Uint8Array(this.pending.length + bytes.length);
    all.set(this.pending);
    all.set(bytes, this.pending.length);
    let whole: number;
    try {
      whole = wholeBoxesLength(all);
    } catch (e) {
      this.onProblem((e as Error).message);
      this.pending = new Uint8Array(0);
      return;
    }
    if (whole > 0) this.queue.push(all.slice(0, whole));
    this.pending = all.slice(whole);
    this.feed();
  }

  private feed(): void {
    const sb = this.sb;
    if (!sb || sb.updating || this.ms?.readyState !== 'open') return;
    if (this.trim()) return; // a removal runs; updateend feeds again
    const next = this.queue[0];
    if (!next) return;
    try {
      sb.appendBuffer(next);
      this.queue.shift();
    } catch (e) {
      if ((e as DOMException).name === 'QuotaExceededError') {
        const t = this.video.currentTime;
        if (t > 1) sb.remove(0, t - 1);
        return;
      }
      this.queue.shift();
      this.onProblem(`append: ${(e as Error).message}`);
    }
    this.keepLive();
  }

  /** Remove what was played more than keepSeconds ago; true when a removal started. */
  private trim(): boolean {
    const sb = this.sb!;
    const b = sb.buffered;
    if (b.length === 0) return false;
    const upTo = this.video.currentTime - this.opts.keepSeconds;
    if (upTo - b.start(0) < 5) return false;
    sb.remove(0, upTo);
    return true;
  }

  /** Late join, stalls, autoplay: keep playback near the live edge. */
  private keepLive(): void {
    const v = this.video;
    const b = v.buffered;
    if (b.length === 0) return;
    const end = b.end(b.length - 1);
    const t = v.currentTime;
    if (t < b.start(0) || end - t > this.opts.maxLag)
      v.currentTime = Math.max(b.start(b.length - 1), end - this.opts.liveLatency);
    if (v.paused && !v.ended && !this.playing) {
      this.playing = true;
      v.play()
        .catch((e: Error) => {
          if (!this.blocked)
            this.onProblem(`play: ${e.message} (a click on the page lets it play)`);
          this.blocked = true;
        })
        .finally(() => (this.playing = false));
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.ms?.readyState === 'open') {
      try {
        this.ms.endOfStream();
      } catch {
        /* already ending */
      }
    }
    if (this.url) URL.revokeObjectURL(this.url);
    this.sb = undefined;
    this.queue.length = 0;
  }
}
