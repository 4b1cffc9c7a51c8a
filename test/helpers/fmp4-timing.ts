/**
 * Per-track timing of a fragmented MP4 read from its own boxes (each moof's tfdt and trun
 * sample durations): what a player would see, for the media timing tests.
 */
import findBox from 'mux.js/lib/mp4/find-box.js';
import parseTfhd from 'mux.js/lib/tools/parse-tfhd.js';
import parseTrun from 'mux.js/lib/tools/parse-trun.js';
import { spawnSync } from 'node:child_process';
import { ffmpegPath } from '../../src/media/ffmpeg.js';
import { splitFmp4 } from '../../src/media/fmp4.js';

export interface TrackTiming {
  frames: number;
  /** Sample durations (ms) that are not the track's usual one. */
  odd: number[];
  /** Holes between one fragment's end and the next one's start (ms). */
  gaps: number[];
  /** Each fragment's end (ms), in order. */
  fragmentEnds: number[];
  startMs: number;
  endMs: number;
}

/** Per-track timing of a fragmented MP4, from its tfdt and trun sample durations. */
export function timings(mp4: Buffer): { video: TrackTiming; audio: TrackTiming } {
  const { tracks, fragments } = splitFmp4(mp4);
  const out: Record<string, TrackTiming & { end?: number; usual: number }> = {};
  for (const f of fragments) {
    for (const traf of findBox(findBox(f.data, ['moof'])[0]!, ['traf'])) {
      const tfhd = parseTfhd(findBox(traf, ['tfhd'])[0]!);
      const id = tfhd.trackId;
      const track = tracks.find((t) => t.id === id)!;
      const dflt = tfhd.defaultSampleDuration ?? track.defaultSampleDuration;
      const ms = (ticks: number) => (ticks * 1000) / track.timescale;
      const start = f.tracks.find((t) => t.id === id)!.start;
      const durs = findBox(traf, ['trun']).flatMap((trun) =>
        parseTrun(trun).samples.map((s: { duration?: number }) => s.duration ?? dflt),
      );
      const t = (out[track.kind] ??= {
        frames: 0,
        odd: [],
        gaps: [],
        fragmentEnds: [],
        startMs: ms(start),
        endMs: 0,
        usual: track.kind === 'video' ? track.timescale / 25 : 1024,
      });
      if (t.end !== undefined && start !== t.end) t.gaps.push(ms(start - t.end));
      for (const d of durs) if (d !== t.usual) t.odd.push(ms(d));
      t.frames += durs.length;
      t.end = start + durs.reduce((a: number, b: number) => a + b, 0);
      t.endMs = ms(t.end);
      t.fragmentEnds.push(t.endMs);
    }
  }
  return { video: out.video!, audio: out.audio! };
}

/** Onsets (ms) of the loud bursts in the decoded audio track. */
export function burstsMs(mp4: Buffer): number[] {
  const pcm = spawnSync(
    ffmpegPath(),
    [
      '-v',
      'error',
      '-i',
      'pipe:0',
      '-map',
      '0:a',
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      '32000',
      'pipe:1',
    ],
    { input: mp4, maxBuffer: 1e8 },
  ).stdout;
  const s = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
  const onsets: number[] = [];
  let last = -Infinity;
  for (let i = 0; i < s.length; i++) {
    if (Math.abs(s[i]!) < 3000) continue;
    if (i - last > 3200) onsets.push((i * 1000) / 32000);
    last = i;
  }
  return onsets;
}
