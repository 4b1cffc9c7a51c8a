/**
 * Fragmented MP4 plumbing for the session stream: split an ffmpeg fMP4 byte stream into its
 * init segment and moof+mdat fragments, read each fragment's timing per track, re-time a
 * fragment onto the session timeline by patching its `mfhd` sequence number and each
 * `traf`'s `tfdt` in place (ffmpeg writes 64-bit tfdt, so no box ever changes size), and
 * read the codec string from the init segment's real SPS and esds (never hard-coded).
 * Box lookup uses mux.js's findBox, which returns views into the buffer.
 */
import findBox from 'mux.js/lib/mp4/find-box.js';
import parseTfhd from 'mux.js/lib/tools/parse-tfhd.js';
import parseTrun from 'mux.js/lib/tools/parse-trun.js';

export interface TrackInfo {
  id: number;
  kind: 'video' | 'audio';
  timescale: number;
  /** RFC 6381 codec, e.g. `avc1.42c01e` or `mp4a.40.2`. */
  codec: string;
  defaultSampleDuration: number;
  /** Video only: frame size from the sample entry (0 for audio). */
  width: number;
  height: number;
}

export interface Fragment {
  /** moof + mdat bytes as encoded (never mutated: re-timing copies). */
  data: Buffer;
  /** Per traf: track id, clip-relative start and duration (track timescale), tfdt offset in `data`. */
  tracks: { id: number; start: number; duration: number; tfdtAt: number }[];
  mfhdAt: number;
  /** The video track's first sample is a sync sample (a keyframe): a decoder can start here. */
  key: boolean;
}

const view = (u: Uint8Array) => new DataView(u.buffer, u.byteOffset, u.byteLength);
const off = (parent: Buffer, child: Uint8Array) => child.byteOffset - parent.byteOffset;

/** Tracks of an init segment (moov), with their codec strings. */
export function parseInit(init: Buffer): TrackInfo[] {
  const trexDefaults = new Map<number, number>();
  for (const trex of findBox(init, ['moov', 'mvex', 'trex']))
    trexDefaults.set(view(trex).getUint32(4), view(trex).getUint32(12));
  return findBox(init, ['moov', 'trak']).map((trak) => {
    const tkhd = findBox(trak, ['tkhd'])[0]!;
    const id = view(tkhd).getUint32(tkhd[0] === 1 ? 20 : 12);
    const mdhd = findBox(trak, ['mdia', 'mdhd'])[0]!;
    const timescale = view(mdhd).getUint32(mdhd[0] === 1 ? 20 : 12);
    const handler = String.fromCharCode(...findBox(trak, ['mdia', 'hdlr'])[0]!.subarray(8, 12));
    const stsd = findBox(trak, ['mdia', 'minf', 'stbl', 'stsd'])[0]!;
    const entries = stsd.subarray(8);
    const kind = handler === 'vide' ? 'video' : 'audio';
    const size =
      kind === 'video'
        ? { width: view(entries).getUint16(8 + 24), height: view(entries).getUint16(8 + 26) }
        : { width: 0, height: 0 };
    return {
      id,
      kind,
      timescale,
      codec: kind === 'video' ? avcCodec(entries) : aacCodec(entries),
      defaultSampleDuration: trexDefaults.get(id) ?? 0,
      ...size,
    };
  });
}

/** `avc1.PPCCLL` from the first SPS in avcC (profile_idc, constraint flags, level_idc). */
function avcCodec(entries: Uint8Array): string {
  const avcC = findBox(entries.subarray(8 + 78), ['avcC'])[0];
  if (!avcC) throw new Error('init segment has no avcC');
  const spsLen = view(avcC).getUint16(6);
  const sps = avcC.subarray(8, 8 + spsLen);
  const hex = (b: number) => b.toString(16).padStart(2, '0');
  return `avc1.${hex(sps[1]!)}${hex(sps[2]!)}${hex(sps[3]!)}`;
}

/** `mp4a.OO.A`: objectTypeIndication and the AudioSpecificConfig's audio object type from esds. */
function aacCodec(entries: Uint8Array): string {
  const esds = findBox(entries.subarray(8 + 28), ['esds'])[0];
  if (!esds) throw new Error('init segment has no esds');
  let i = 4;
  let oti = 0;
  let aot = 0;
  while (i < esds.length) {
    const tag = esds[i++]!;
    let len = 0;
    for (let k = 0; k < 4; k++) {
      const b = esds[i++]!;
      len = (len << 7) | (b & 0x7f);
      if (!(b & 0x80)) break;
    }
    if (tag === 0x03)
      i += 3; // ES_ID + flags, then nested descriptors
    else if (tag === 0x04) {
      oti = esds[i]!;
      i += 13; // to the nested DecoderSpecificInfo
    } else if (tag === 0x05) {
      aot = esds[i]! >> 3;
      if (aot === 31) aot = 32 + (((esds[i]! & 7) << 3) | (esds[i + 1]! >> 5));
      break;
    } else i += len;
  }
  return `mp4a.${oti.toString(16)}.${aot}`;
}

/** `video/mp4; codecs="avc1..., mp4a..."` for MediaSource. */
export function mimeOf(tracks: TrackInfo[]): string {
  return `video/mp4; codecs="${tracks.map((t) => t.codec).join(', ')}"`;
}

/** Timing of one moof+mdat pair. */
export function readFragment(data: Buffer, tracks: TrackInfo[]): Fragment {
  const moof = findBox(data, ['moof'])[0]!;
  const mfhd = findBox(moof, ['mfhd'])[0]!;
  const out: Fragment = { data, tracks: [], mfhdAt: off(data, mfhd) + 4, key: false };
  for (const traf of findBox(moof, ['traf'])) {
    const tfhd = parseTfhd(findBox(traf, ['tfhd'])[0]!);
    const tfdt = findBox(traf, ['tfdt'])[0]!;
    if (tfdt[0] !== 1)
      throw new Error('32-bit tfdt: re-timing needs the 64-bit form ffmpeg writes');
    const track = tracks.find((t) => t.id === tfhd.trackId);
    const dflt = tfhd.defaultSampleDuration ?? track?.defaultSampleDuration ?? 0;
    let duration = 0;
    const runs = findBox(traf, ['trun']).map((trun) => parseTrun(trun));
    for (const r of runs) for (const s of r.samples) duration += s.duration ?? dflt;
    if (track?.kind === 'video') {
      // ISO 14496-12 8.8.3.1: sample_is_non_sync_sample, from the sample's own flags (ffmpeg
      // writes first_sample_flags on keyframes) or else tfhd's defaults.
      const first = runs[0]?.samples[0]?.flags;
      const dfltFlags = tfhd.defaultSampleFlags;
      out.key = first
        ? first.isNonSyncSample === 0
        : dfltFlags !== undefined && (dfltFlags & 0x10000) === 0;
    }
    out.tracks.push({
      id: tfhd.trackId,
      start: Number(view(tfdt).getBigUint64(4)),
      duration,
      tfdtAt: off(data, tfdt) + 4,
    });
  }
  return out;
}

/** A copy of `f` with sequence number `seq` and each track's tfdt moved by `shift[trackId]`. */
export function retime(f: Fragment, seq: number, shift: Map<number, number>): Buffer {
  const buf = Buffer.from(f.data);
  buf.writeUInt32BE(seq, f.mfhdAt);
  for (const t of f.tracks)
    buf.writeBigUInt64BE(BigInt(t.start + (shift.get(t.id) ?? 0)), t.tfdtAt);
  return buf;
}

/**
 * Incremental splitter over an fMP4 byte stream: calls `onInit` once with ftyp+moov and
 * `onFragment` with each complete moof+mdat; other top-level boxes (mfra) are dropped.
 */
export class FragmentSplitter {
  private pending: Buffer = Buffer.alloc(0);
  private head: Buffer[] = [];
  private moof: Buffer | null = null;
  private tracks: TrackInfo[] | null = null;

  constructor(
    private readonly onInit: (init: Buffer, tracks: TrackInfo[]) => void,
    private readonly onFragment: (f: Fragment) => void,
  ) {}

  push(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      if (this.pending.length < 8) return;
      const size = this.pending.readUInt32BE(0);
      if (size < 8) throw new Error(`bad MP4 box size ${size}`);
      if (this.pending.length < size) return;
      const box = this.pending.subarray(0, size);
      this.pending = this.pending.subarray(size);
      this.box(box.toString('latin1', 4, 8), Buffer.from(box));
    }
  }

  private box(type: string, box: Buffer): void {
    if (type === 'ftyp') this.head.push(box);
    else if (type === 'moov') {
      this.head.push(box);
      const init = Buffer.concat(this.head);
      this.tracks = parseInit(init);
      this.onInit(init, this.tracks);
    } else if (type === 'moof') this.moof = box;
    else if (type === 'mdat' && this.moof && this.tracks) {
      this.onFragment(readFragment(Buffer.concat([this.moof, box]), this.tracks));
      this.moof = null;
    }
  }
}

/** Split a whole fMP4 file. */
export function splitFmp4(bytes: Buffer): {
  init: Buffer;
  tracks: TrackInfo[];
  fragments: Fragment[];
} {
  let init: Buffer | null = null;
  let tracks: TrackInfo[] = [];
  const fragments: Fragment[] = [];
  const s = new FragmentSplitter(
    (i, t) => {
      init = i;
      tracks = t;
    },
    (f) => fragments.push(f),
  );
  s.push(bytes);
  if (!init) throw new Error('not a fragmented MP4 (no moov before the first fragment)');
  return { init, tracks, fragments };
}

/**
 * A fragment cut short inside its `mdat` (a `truncate_fragment` fault; docs/testing.md):
 * the boxes keep their declared sizes, the bytes stop half way into the media data, so a
 * parser (MSE's included) meets a box that runs past its data. A buffer without an `mdat`
 * is cut at half its length.
 */
export function cutFragment(buf: Buffer): Buffer {
  let at = 0;
  while (at + 8 <= buf.length) {
    const size = buf.readUInt32BE(at);
    if (buf.toString('latin1', at + 4, at + 8) === 'mdat') {
      const payload = Math.max(0, Math.min(size, buf.length - at) - 8);
      return buf.subarray(0, at + 8 + Math.floor(payload / 2));
    }
    if (size < 8) break;
    at += size;
  }
  return buf.subarray(0, Math.floor(buf.length / 2));
}
