import { spawn } from 'node:child_process';
import {
  encoderArgs,
  FRAMES_PER_UNIT,
  PCM_RATE,
  PRIMING_MS,
  UNIT_MS,
} from '../../src/media/encoder.js';
import { ffmpegPath } from '../../src/media/ffmpeg.js';

/**
 * An idle loop as the build between the 32 kHz move and the 40 kb/s one made it: the live
 * encoder's arguments with AAC at 32 kb/s, `units` of grey and silence. It passes
 * loadIdleLoop (fMP4, video + 32 kHz audio); only its init segment (the esds bitrate) differs.
 */
export function loopAt32kbps(width: number, height: number, units = 2): Promise<Buffer> {
  const args = encoderArgs(width, height);
  args[args.indexOf('-b:a') + 1] = '32k';
  const p = spawn(ffmpegPath(), args, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  p.stdout!.on('data', (d: Buffer) => out.push(d));
  p.stderr!.resume();
  const grey = Buffer.alloc((width * height * 3) / 2, 128);
  for (let i = 0; i < units * FRAMES_PER_UNIT; i++) p.stdin!.write(grey);
  p.stdin!.end();
  (p.stdio[3] as NodeJS.WritableStream).end(
    Buffer.alloc(((units * UNIT_MS - PRIMING_MS) * PCM_RATE * 2) / 1000),
  );
  return new Promise((resolve, reject) =>
    p.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg exited ${code}`)),
    ),
  );
}
