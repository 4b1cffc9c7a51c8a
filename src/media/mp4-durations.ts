/**
 * Make an MP4's declared durations follow its edit lists (ISO/IEC 14496-12 8.6.5: a
 * track's tkhd duration is the sum of its edits; mvhd's is the longest track). ffmpeg's
 * muxer writes the AAC track's tkhd from its media length, which includes the encoder's
 * 1024 priming samples the edit list skips: at 16 kHz every clip read 64 ms long (a
 * 0.54 s "hi" said 0.60 s). Patched in place (same sizes), so chunk offsets stay valid.
 */
interface Box {
  type: string;
  start: number;
  body: number;
  end: number;
}

function* boxes(b: Buffer, from: number, to: number): Generator<Box> {
  let at = from;
  while (at + 8 <= to) {
    let size = b.readUInt32BE(at);
    let body = at + 8;
    if (size === 1) {
      size = Number(b.readBigUInt64BE(at + 8));
      body = at + 16;
    } else if (size === 0) size = to - at;
    if (size < 8 || at + size > to) return;
    yield { type: b.toString('latin1', at + 4, at + 8), start: at, body, end: at + size };
    at += size;
  }
}

const child = (b: Buffer, box: Box, type: string) =>
  [...boxes(b, box.body, box.end)].find((x) => x.type === type);
const readN = (b: Buffer, at: number, v1: boolean) =>
  v1 ? Number(b.readBigUInt64BE(at)) : b.readUInt32BE(at);
const writeN = (b: Buffer, at: number, v1: boolean, n: number) =>
  v1 ? b.writeBigUInt64BE(BigInt(n), at) : b.writeUInt32BE(n, at);

/** Patches `mp4` in place; leaves it alone when it has no moov or no edit lists. */
export function durationsFromEditLists(mp4: Buffer): Buffer {
  const moov = [...boxes(mp4, 0, mp4.length)].find((x) => x.type === 'moov');
  if (!moov) return mp4;
  const mvhd = child(mp4, moov, 'mvhd');
  if (!mvhd) return mp4;
  let longest = 0;
  let edited = false;
  for (const trak of boxes(mp4, moov.body, moov.end)) {
    if (trak.type !== 'trak') continue;
    const tkhd = child(mp4, trak, 'tkhd');
    if (!tkhd) continue;
    const tv1 = mp4[tkhd.body] === 1;
    const tDur = tkhd.body + (tv1 ? 4 + 8 + 8 + 4 + 4 : 4 + 4 + 4 + 4 + 4);
    const edts = child(mp4, trak, 'edts');
    const elst = edts && child(mp4, edts, 'elst');
    if (!elst) {
      longest = Math.max(longest, readN(mp4, tDur, tv1));
      continue;
    }
    const ev1 = mp4[elst.body] === 1;
    const count = mp4.readUInt32BE(elst.body + 4);
    let sum = 0;
    for (let k = 0, at = elst.body + 8; k < count; k++, at += ev1 ? 20 : 12)
      sum += readN(mp4, at, ev1);
    writeN(mp4, tDur, tv1, sum);
    longest = Math.max(longest, sum);
    edited = true;
  }
  if (!edited) return mp4;
  const mv1 = mp4[mvhd.body] === 1;
  writeN(mp4, mvhd.body + (mv1 ? 4 + 8 + 8 + 4 : 4 + 4 + 4 + 4), mv1, longest);
  return mp4;
}
