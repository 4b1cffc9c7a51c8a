/**
 * Just enough H.264 bitstream handling for the mouth-shape bank (visemes.ts): read the SPS
 * and PPS of an init segment's avcC, and turn a P slice into a non-reference one (ITU-T
 * H.264 7.3.3: `nal_ref_idc` 0, so `dec_ref_pic_marking()` leaves the slice header). A
 * decoder then keeps the keyframe before it as the only reference, and any number of such
 * P frames, in any order, each decode exactly as they were encoded: one keyframe of the
 * closed mouth, then a pre-encoded frame per mouth shape.
 *
 * Only CAVLC (baseline) slices with one slice group and no weighted prediction or memory
 * management commands are handled; anything else throws (the caller then encodes live).
 */

export interface Sps {
  log2MaxFrameNum: number;
  pocType: number;
  log2MaxPocLsb: number;
  deltaPicOrderAlwaysZero: boolean;
  frameMbsOnly: boolean;
}

export interface Pps {
  bottomFieldPicOrder: boolean;
  redundantPicCnt: boolean;
  weightedPred: boolean;
  cabac: boolean;
  sliceGroups: number;
}

class BitReader {
  pos = 0;
  constructor(private readonly b: Uint8Array) {}
  bit(): number {
    if (this.pos >= this.b.length * 8) throw new Error('H.264: read past the end');
    const v = (this.b[this.pos >> 3]! >> (7 - (this.pos & 7))) & 1;
    this.pos++;
    return v;
  }
  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }
  ue(): number {
    let zeros = 0;
    while (this.bit() === 0) if (++zeros > 31) throw new Error('H.264: bad Exp-Golomb code');
    return 2 ** zeros - 1 + this.bits(zeros);
  }
  se(): number {
    const k = this.ue();
    return k % 2 ? (k + 1) / 2 : -k / 2;
  }
}

/** NAL payload without emulation-prevention bytes (00 00 03 -> 00 00). */
export function toRbsp(nal: Uint8Array): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of nal) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Uint8Array.from(out);
}

/** Emulation prevention put back (a 03 after two zero bytes before any byte <= 3). */
export function fromRbsp(rbsp: Uint8Array): Buffer {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

export function parseSps(nal: Uint8Array): Sps {
  const r = new BitReader(toRbsp(nal));
  r.bits(8); // NAL header
  const profile = r.bits(8);
  r.bits(16); // constraint flags, level
  r.ue(); // seq_parameter_set_id
  if (HIGH_PROFILES.has(profile)) {
    if (r.ue() === 3) r.bit();
    r.ue();
    r.ue();
    r.bit();
    if (r.bit()) throw new Error('H.264: SPS scaling matrices are not handled');
  }
  const log2MaxFrameNum = r.ue() + 4;
  const pocType = r.ue();
  let log2MaxPocLsb = 0;
  let deltaPicOrderAlwaysZero = false;
  if (pocType === 0) log2MaxPocLsb = r.ue() + 4;
  else if (pocType === 1) {
    deltaPicOrderAlwaysZero = r.bit() === 1;
    r.se();
    r.se();
    for (let i = r.ue(); i > 0; i--) r.se();
  }
  r.ue(); // max_num_ref_frames
  r.bit(); // gaps_in_frame_num_value_allowed_flag
  r.ue();
  r.ue(); // size in macroblocks
  const frameMbsOnly = r.bit() === 1;
  return { log2MaxFrameNum, pocType, log2MaxPocLsb, deltaPicOrderAlwaysZero, frameMbsOnly };
}

export function parsePps(nal: Uint8Array): Pps {
  const r = new BitReader(toRbsp(nal));
  r.bits(8);
  r.ue();
  r.ue();
  const cabac = r.bit() === 1;
  const bottomFieldPicOrder = r.bit() === 1;
  const sliceGroups = r.ue() + 1;
  if (sliceGroups > 1)
    return { bottomFieldPicOrder, redundantPicCnt: false, weightedPred: false, cabac, sliceGroups };
  r.ue();
  r.ue();
  const weightedPred = r.bit() === 1;
  r.bits(2);
  r.se();
  r.se();
  r.se();
  r.bit();
  r.bit();
  const redundantPicCnt = r.bit() === 1;
  return { bottomFieldPicOrder, redundantPicCnt, weightedPred, cabac, sliceGroups };
}

/** The first SPS and PPS of an avcC box payload. */
export function parameterSets(avcC: Uint8Array): { sps: Sps; pps: Pps } {
  const v = new DataView(avcC.buffer, avcC.byteOffset, avcC.byteLength);
  let o = 5; // version, profile, compat, level, length size (findBox gives the payload)
  const nSps = avcC[o++]! & 0x1f;
  let sps: Sps | null = null;
  for (let i = 0; i < nSps; i++) {
    const len = v.getUint16(o);
    sps ??= parseSps(avcC.subarray(o + 2, o + 2 + len));
    o += 2 + len;
  }
  const nPps = avcC[o++]!;
  let pps: Pps | null = null;
  for (let i = 0; i < nPps; i++) {
    const len = v.getUint16(o);
    pps ??= parsePps(avcC.subarray(o + 2, o + 2 + len));
    o += 2 + len;
  }
  if (!sps || !pps) throw new Error('H.264: avcC has no SPS or PPS');
  return { sps, pps };
}

/** NAL units of a length-prefixed (AVCC, 4-byte lengths) sample. */
export function nalUnits(sample: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  const v = new DataView(sample.buffer, sample.byteOffset, sample.byteLength);
  for (let o = 0; o + 4 <= sample.length; ) {
    const len = v.getUint32(o);
    out.push(sample.subarray(o + 4, o + 4 + len));
    o += 4 + len;
  }
  return out;
}

/** A length-prefixed sample from NAL units. */
export function avccSample(nals: Uint8Array[]): Buffer {
  const out = Buffer.alloc(nals.reduce((n, u) => n + 4 + u.length, 0));
  let o = 0;
  for (const u of nals) {
    out.writeUInt32BE(u.length, o);
    out.set(u, o + 4);
    o += 4 + u.length;
  }
  return out;
}

export const nalType = (nal: Uint8Array): number => nal[0]! & 0x1f;

/**
 * A coded P slice (NAL type 1) made non-reference: `nal_ref_idc` 0 and its
 * `adaptive_ref_pic_marking_mode_flag` bit taken out of the header (the rest of the slice
 * moves up one bit; the stop bit and byte alignment are redone).
 */
export function nonReferenceSlice(nal: Uint8Array, sps: Sps, pps: Pps): Buffer {
  if (nalType(nal) !== 1) throw new Error('H.264: not a non-IDR slice');
  if (pps.cabac || pps.sliceGroups > 1 || pps.weightedPred)
    throw new Error('H.264: only plain CAVLC slices are handled');
  if (!sps.frameMbsOnly) throw new Error('H.264: field coding is not handled');
  if (((nal[0]! >> 5) & 3) === 0) return Buffer.from(nal);
  const rbsp = toRbsp(nal);
  const r = new BitReader(rbsp);
  r.bits(8);
  r.ue(); // first_mb_in_slice
  const sliceType = r.ue() % 5;
  if (sliceType !== 0) throw new Error('H.264: not a P slice');
  r.ue(); // pic_parameter_set_id
  r.bits(sps.log2MaxFrameNum);
  if (sps.pocType === 0) {
    r.bits(sps.log2MaxPocLsb);
    if (pps.bottomFieldPicOrder) r.se();
  } else if (sps.pocType === 1 && !sps.deltaPicOrderAlwaysZero) {
    r.se();
    if (pps.bottomFieldPicOrder) r.se();
  }
  if (pps.redundantPicCnt) r.ue();
  if (r.bit()) r.ue(); // num_ref_idx_active_override_flag, num_ref_idx_l0_active_minus1
  if (r.bit()) {
    // ref_pic_list_modification_flag_l0
    for (let idc = r.ue(); idc !== 3; idc = r.ue()) r.ue();
  }
  const at = r.pos;
  if (r.bit()) throw new Error('H.264: memory management commands are not handled');
  const out = spliceBits(rbsp, at, 1, []);
  out[0] = rbsp[0]! & 0x9f; // nal_ref_idc 0
  return fromRbsp(out);
}

/**
 * An IDR slice (NAL type 5) with `idr_pic_id` 0. x264 alternates it between 0 and 1; two
 * keyframes of the same picture then differ only there, and decode the same.
 */
export function idrPicIdZero(nal: Uint8Array, sps: Sps): Buffer {
  if (nalType(nal) !== 5) throw new Error('H.264: not an IDR slice');
  const rbsp = toRbsp(nal);
  const r = new BitReader(rbsp);
  r.bits(8);
  r.ue();
  r.ue();
  r.ue();
  r.bits(sps.log2MaxFrameNum);
  if (!sps.frameMbsOnly) throw new Error('H.264: field coding is not handled');
  const at = r.pos;
  r.ue();
  return fromRbsp(spliceBits(rbsp, at, r.pos - at, [1]));
}

/** The RBSP with `len` bits at `at` replaced by `bits`; the stop bit and alignment redone. */
function spliceBits(rbsp: Uint8Array, at: number, len: number, bits: number[]): Uint8Array {
  let last = rbsp.length * 8 - 1;
  while (last >= 0 && ((rbsp[last >> 3]! >> (7 - (last & 7))) & 1) === 0) last--;
  const out = new Uint8Array(Math.ceil((last + 1 + bits.length) / 8) + 1);
  let w = 0;
  const put = (bit: number) => {
    if (bit) out[w >> 3]! |= 0x80 >> (w & 7);
    w++;
  };
  const get = (i: number) => (rbsp[i >> 3]! >> (7 - (i & 7))) & 1;
  for (let i = 0; i < at; i++) put(get(i));
  for (const b of bits) put(b);
  for (let i = at + len; i <= last; i++) put(get(i));
  return out.subarray(0, Math.ceil(w / 8));
}
