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
  const n = v.trim() === '' ? NaN : Number(v);
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

/** Fleet, queue and session knobs (issue 4; src/emulator/sessions/options.ts). */
const caps = (v: string) => JSON.parse(v) as unknown;
emulatorFlags.push(
  { flags: '--boxes <n>', description: 'edge boxes started in-process (0: a control plane with no box)', option: 'boxes', parse: int('--boxes'), default: 1 },
  { flags: '--seats <n>', description: 'seats per box', option: 'seats', parse: int('--seats'), default: 4 },
  { flags: '--box-capabilities <json>', description: 'per-box capabilities, e.g. \'[{"protocols":[1],"customAvatars":false},{"verified":false}]\'', option: 'boxCapabilities', parse: caps },
  { flags: '--token-ttl-s <s>', description: 'session token lifetime', option: 'tokenTtlS', parse: int('--token-ttl-s'), default: 60 },
  { flags: '--claim-window-s <s>', description: 'claim window of a claimable ticket', option: 'claimWindowS', parse: int('--claim-window-s'), default: 45 },
  { flags: '--waiter-idle-s <s>', description: 'waiter liveness without polling', option: 'waiterIdleS', parse: int('--waiter-idle-s'), default: 12 },
  { flags: '--notify-idle-s <s>', description: 'waiter liveness with a notify block', option: 'notifyIdleS', parse: int('--notify-idle-s'), default: 300 },
  { flags: '--queue-retry-after-s <s>', description: 'advisory retry_after of a waiting ticket', option: 'queueRetryAfterS', parse: int('--queue-retry-after-s'), default: 3 },
  { flags: '--pending-idle-s <s>', description: 'idle reaper: seconds a minted, unconnected session keeps its seat without heartbeat', option: 'pendingIdleS', parse: int('--pending-idle-s'), default: 60 },
  { flags: '--session-cap-s <s>', description: 'default session length', option: 'sessionCapS', parse: int('--session-cap-s'), default: 300 },
  { flags: '--mint-rate <n>', description: 'mints per minute per key (0: off)', option: 'mintRatePerMinute', parse: int('--mint-rate'), default: 120 },
  { flags: '--demo-quota-min <n>', description: 'daily session minutes of a demo workspace', option: 'demoQuotaMinutes', parse: int('--demo-quota-min'), default: 30 },
  { flags: '--plan-limits <json>', description: 'per-plan limits, e.g. \'{"free":{"concurrency":4,"maxCapSeconds":3600}}\'', option: 'planLimits', parse: caps },
);

/** The edge's pluggable parts (issue 8; docs/edge.md): the in-process boxes use them. */
emulatorFlags.push(
  { flags: '--asr-url <url>', description: 'OpenAI-compatible /audio/transcriptions base URL the edge recognises speech with', option: 'asrUrl' },
  { flags: '--llm-url <url>', description: 'OpenAI-compatible chat base URL the edge brain uses (key from AVATAR_LLM_API_KEY)', option: 'llmUrl' },
  { flags: '--llm-model <name>', description: 'model name sent to --llm-url', option: 'llmModel' },
);
