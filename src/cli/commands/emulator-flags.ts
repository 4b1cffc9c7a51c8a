import type { EmulatorOptions } from '../../emulator/options.js';

/**
 * Flags of `avatar emulator start`, as data: each maps to one EmulatorOptions field, so
 * the CLI and `startEmulator()` expose the same knobs (ARCHITECTURE property 2).
 * A later resource adds its options here.
 */
export interface EmulatorFlag {
  flags: string;
  description: string;
  option: keyof EmulatorOptions & string;
  parse?: (v: string) => unknown;
  default?: unknown;
}

export const int = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} takes a non-negative integer, got ${v}`);
  return n;
};

export const emulatorFlags: EmulatorFlag[] = [
  { flags: '--port <n>', description: 'TCP port (0 picks a free one)', option: 'port', parse: int('--port'), default: 4780 },
  { flags: '--host <addr>', description: 'address to listen on', option: 'host', default: '127.0.0.1' },
  { flags: '--data <dir>', description: 'data directory (SQLite store + blobs), reused across restarts', option: 'dataDir', default: '.avatar-emulator' },
  { flags: '--in-memory', description: 'keep everything in memory (nothing written to disk)', option: 'inMemory' },
  {
    flags: '--allow-insecure-urls',
    description: 'accept plain-http and loopback hook/webhook URLs (off by default: the service requires https)',
    option: 'allowInsecureUrls',
  },
  { flags: '--verbose', description: 'log every request to stderr', option: 'verbose' },
];
