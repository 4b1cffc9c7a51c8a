/**
 * The microphone for the edge's uplink (spec 4.6): `getUserMedia` with echo cancellation
 * (the spec requires it: the avatar's voice must not come back as the user's turn), then an
 * AudioWorklet that resamples whatever rate the AudioContext runs at to 16 kHz and posts
 * exact frames of 1,600 PCM16 samples (100 ms, 3,200 bytes), each with its level.
 * The worklet's code is a Blob URL made here: nothing is fetched, the module works offline.
 */

export const MIC_FRAME_SAMPLES = 1_600;

/** The AudioWorklet processor: box-filter decimation to 16 kHz, PCM16 frames of 1,600. */
const WORKLET = `
class AvatarMic16k extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ratio = sampleRate / 16000;
    this.frame = new Int16Array(${MIC_FRAME_SAMPLES});
    this.n = 0;
    this.acc = 0;
    this.accN = 0;
    this.pos = 0;
    this.energy = 0;
  }
  process(inputs) {
    const ch = inputs[0] && inputs[0][0];
    if (!ch) return true;
    for (let i = 0; i < ch.length; i++) {
      this.acc += ch[i];
      this.accN++;
      this.pos += 1;
      if (this.pos < this.ratio) continue;
      this.pos -= this.ratio;
      const x = Math.max(-1, Math.min(1, this.acc / this.accN));
      this.acc = 0;
      this.accN = 0;
      this.energy += x * x;
      this.frame[this.n++] = x < 0 ? x * 32768 : x * 32767;
      if (this.n === ${MIC_FRAME_SAMPLES}) {
        const level = Math.sqrt(this.energy / ${MIC_FRAME_SAMPLES});
        this.port.postMessage({ frame: this.frame.buffer, level }, [this.frame.buffer]);
        this.frame = new Int16Array(${MIC_FRAME_SAMPLES});
        this.n = 0;
        this.energy = 0;
      }
    }
    return true;
  }
}
registerProcessor('avatar-mic-16k', AvatarMic16k);
`;

export interface MicOptions {
  /** Each 100 ms frame: 1,600 samples of 16 kHz mono PCM16 little-endian (3,200 bytes). */
  onFrame(frame: Uint8Array): void;
  /** The frame's RMS level, 0 to 1 (for a meter). */
  onLevel?(level: number): void;
  /** A specific input (from `enumerateDevices`). */
  deviceId?: string;
}

export interface MicCapture {
  /** The sample rate the browser captured at (resampled to 16 kHz). */
  readonly inputRate: number;
  stop(): Promise<void>;
}

export async function startMic(opts: MicOptions): Promise<MicCapture> {
  if (!navigator.mediaDevices?.getUserMedia)
    throw new Error('no microphone access here (a page must be https or localhost)');
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: {
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
      channelCount: 1,
      ...(opts.deviceId ? { deviceId: { exact: opts.deviceId } } : {}),
    },
  });
  const ctx = new AudioContext();
  try {
    const url = URL.createObjectURL(new Blob([WORKLET], { type: 'text/javascript' }));
    try {
      await ctx.audioWorklet.addModule(url);
    } finally {
      URL.revokeObjectURL(url);
    }
    const source = ctx.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(ctx, 'avatar-mic-16k', {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      channelCount: 1,
    });
    node.port.onmessage = (m: MessageEvent<{ frame: ArrayBuffer; level: number }>) => {
      opts.onFrame(new Uint8Array(m.data.frame));
      opts.onLevel?.(m.data.level);
    };
    // A silent path to the destination keeps the graph pulled in every browser.
    const mute = ctx.createGain();
    mute.gain.value = 0;
    source.connect(node).connect(mute).connect(ctx.destination);
    if (ctx.state === 'suspended') await ctx.resume();
    return {
      inputRate: ctx.sampleRate,
      async stop() {
        node.port.onmessage = null;
        for (const t of stream.getTracks()) t.stop();
        await ctx.close();
      },
    };
  } catch (e) {
    for (const t of stream.getTracks()) t.stop();
    await ctx.close();
    throw e;
  }
}
