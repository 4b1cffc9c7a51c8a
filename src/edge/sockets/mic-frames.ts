/**
 * The uplink rules shared by /mic_stream (v1) and the v2 socket (spec 4.6, 8): a `hello`
 * first, then 16 kHz mono PCM16 frames of exactly 1600 samples (3200 bytes); text messages
 * are read by the contract's schemas (`readV1ClientText`, `readV2ClientText`). Every
 * violation is answered with an `error` message (spec 6.1) and the offending message is
 * dropped; the socket stays open and the session goes on.
 */
export const FRAME_SAMPLES = 1600;
export const FRAME_BYTES = FRAME_SAMPLES * 2;

export type Uplink =
  | { kind: 'frame'; samples: Int16Array }
  | { kind: 'error'; error: string; detail: string };

/** The hello message of each protocol, as `hello_required` names it: v1 (spec 6.1) and v2 (docs/protocol-v2.md). */
export const HELLO_EXAMPLE = {
  1: '{ "op": "hello", "lang": "en" }',
  2: '{ "type": "hello", "lang": "en" }',
} as const;

/**
 * A binary mic frame, checked; `helloSeen` says whether the hello came first. `protocol`
 * picks the hello the detail names: v2 refuses v1's `op` message, so naming it misleads.
 */
export function micFrame(bytes: Buffer, helloSeen: boolean, protocol: 1 | 2): Uplink {
  if (!helloSeen)
    return {
      kind: 'error',
      error: 'hello_required',
      detail: `send ${HELLO_EXAMPLE[protocol]} before the first audio frame`,
    };
  if (bytes.length !== FRAME_BYTES) {
    // Seconds of audio in one message: say how to split it (pacing is the client's job).
    const split =
      bytes.length > FRAME_BYTES && bytes.length % FRAME_BYTES === 0
        ? `: split it into ${bytes.length / FRAME_BYTES} frames sent 100 ms apart`
        : '';
    return {
      kind: 'error',
      error: 'bad_frame_size',
      detail: `a mic frame is ${FRAME_SAMPLES} samples of 16 kHz mono PCM16 (${FRAME_BYTES} bytes); got ${bytes.length} bytes${split}`,
    };
  }
  // Copy into an aligned buffer: the socket's may start at an odd offset.
  const samples = new Int16Array(FRAME_SAMPLES);
  Buffer.from(samples.buffer).set(bytes);
  return { kind: 'frame', samples };
}
