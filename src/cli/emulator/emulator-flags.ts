import type { EmulatorOptions } from '../../emulator/options.js';
import type { EmulatorFlag } from './emulator-flag.js';
import { allowedHostsList } from '../../contract/hosts.js';
import {
  allowedHostsProblem,
  BoxCapabilitiesSchema,
  optionRanges,
  orgPlans,
  PlanLimitsSchema,
  schemaProblem,
} from '../../emulator/option-limits.js';
import { sessionDefaults } from '../../emulator/session-options.js';
import { readData } from '../read-data.js';
import { httpUrlFlag } from '../../models/check-url.js';
import { inferenceFlags } from './emulator-inference-flags.js';

/**
 * Flags of `avatar emulator start`, as data: each maps to one EmulatorOptions field, so
 * the CLI and `startEmulator()` expose the same knobs (ARCHITECTURE property 2). Each value
 * is checked here, against the same ranges startEmulator() enforces
 * (src/emulator/option-limits.ts), before anything starts (issue 7 item 4). Defaults of
 * the fleet and queue knobs are the emulator's own (sessionDefaults), so the help shows
 * what a start without the flag gets. A later resource adds its options here.
 */
export type { EmulatorFlag } from './emulator-flag.js';

/** An integer in the option's range: `--seats must be an integer from 0 to 10000 (got 20000)`. */
export const int = (name: string, option?: string) => (v: string) => {
  const n = v.trim() === '' ? NaN : Number(v);
  const range = option ? optionRanges[option] : undefined;
  if (!range) {
    if (!Number.isSafeInteger(n) || n < 0)
      throw new Error(`${name} must be a non-negative integer (got ${v})`);
    return n;
  }
  const [lo, hi] = range;
  if (!Number.isInteger(n) || n < lo || n > hi)
    throw new Error(`${name} must be an integer from ${lo} to ${hi} (got ${v})`);
  return n;
};

const json = (name: string, schema: Parameters<typeof schemaProblem>[0]) => (v: string) => {
  let value: unknown;
  try {
    value = readData(v, process.cwd(), name);
  } catch (e) {
    throw new Error((e as Error).message);
  }
  const p = schemaProblem(schema, value, name);
  if (p) throw new Error(p);
  return value;
};

const ranged = (
  flag: string,
  option: keyof EmulatorOptions & string,
  description: string,
  arg = 'n',
): EmulatorFlag => {
  const [lo, hi] = optionRanges[option]!;
  return {
    flags: `${flag} <${arg}>`,
    description: `${description} (${lo} to ${hi})`,
    option,
    parse: int(flag, option),
    default: (sessionDefaults as unknown as Record<string, unknown>)[option],
  };
};

export const emulatorFlags: EmulatorFlag[] = [
  {
    flags: '--port <n>',
    description: 'TCP port, 0 to 65535 (0 picks a free one)',
    option: 'port',
    parse: int('--port', 'port'),
    default: 4780,
  },
  {
    flags: '--host <addr>',
    description: 'address to listen on',
    option: 'host',
    default: '127.0.0.1',
  },
  {
    flags: '--data <dir>',
    description: 'data directory (SQLite store + blobs), reused across restarts',
    option: 'dataDir',
    default: '.avatar-emulator',
  },
  {
    flags: '--in-memory',
    description: 'keep everything in memory (nothing written to disk)',
    option: 'inMemory',
  },
  {
    flags: '--allow-insecure-urls',
    description:
      'accept plain-http and loopback hook/webhook URLs (off by default: the service requires https)',
    option: 'allowInsecureUrls',
  },
  {
    flags: '--allowed-hosts <names>',
    description:
      'Host names served besides localhost, 127.0.0.1, [::1] and the bound address, comma-separated; .example.com takes its subdomains (docs/security.md)',
    option: 'allowedHosts',
    parse: (v) => {
      const list = allowedHostsList(v);
      const p = allowedHostsProblem(list);
      if (p) throw new Error(p.replace(/^allowedHosts/, '--allowed-hosts'));
      return list;
    },
  },
  { flags: '--verbose', description: 'log every request to stderr', option: 'verbose' },
];

/** Fleet, queue and session knobs (issue 4; src/emulator/session-options.ts). */
emulatorFlags.push(
  ranged('--boxes', 'boxes', 'edge boxes started in-process; 0: a control plane with no box'),
  ranged('--seats', 'seats', 'seats per box'),
  {
    flags: '--box-capabilities <json|@file>',
    description:
      'per-box capabilities, a JSON array by box: protocols ([1,2]), customAvatars, verified, seats, maxCapSeconds; ' +
      'e.g. [{"protocols":[1]},{"verified":false}]',
    option: 'boxCapabilities',
    parse: json('--box-capabilities', BoxCapabilitiesSchema),
  },
  ranged('--token-ttl-s', 'tokenTtlS', 'session token lifetime, seconds', 'seconds'),
  ranged(
    '--claim-window-s',
    'claimWindowS',
    'claim window of a claimable ticket, seconds',
    'seconds',
  ),
  ranged('--waiter-idle-s', 'waiterIdleS', 'waiter liveness without polling, seconds', 'seconds'),
  ranged(
    '--notify-idle-s',
    'notifyIdleS',
    'waiter liveness with a notify block, seconds',
    'seconds',
  ),
  ranged(
    '--queue-retry-after-s',
    'queueRetryAfterS',
    'advisory retry_after of a waiting ticket, seconds',
    'seconds',
  ),
  ranged(
    '--pending-idle-s',
    'pendingIdleS',
    'idle reaper: seconds a minted, never connected session keeps its seat',
    'seconds',
  ),
  ranged('--session-cap-s', 'sessionCapS', 'default session length, seconds', 'seconds'),
  ranged('--mint-rate', 'mintRatePerMinute', 'mints per minute per key; 0: off'),
  ranged(
    '--demo-quota-min',
    'demoQuotaMinutes',
    'daily session minutes of a demo workspace',
    'minutes',
  ),
  {
    flags: '--plan-limits <json|@file>',
    description:
      'per-plan limits, a JSON object by plan: concurrency, maxCapSeconds (a field left out keeps its default); e.g. {"free":{"concurrency":1}}',
    option: 'planLimits',
    parse: json('--plan-limits', PlanLimitsSchema),
  },
);

/** The plan of the emulator's own organisation (issue 18 item 10; docs/testing.md). */
emulatorFlags.push({
  flags: '--org-plan <plan>',
  description:
    "plan of the emulator's organisation: free, pro or enterprise (default enterprise: spec limits of 6,000 API requests and 1,000 job submissions a minute); free to test your 429 handling",
  option: 'orgPlan',
  parse: (v: string) => {
    if (!(orgPlans as readonly string[]).includes(v))
      throw new Error(`--org-plan must be one of ${orgPlans.join(', ')} (got ${v})`);
    return v;
  },
});

emulatorFlags.push({
  flags: '--seed <file>',
  description:
    'YAML or JSON seed (workspaces, keys with fixed values, webhooks, org plan; schemas/seed.schema.json) applied to a fresh store',
  option: 'seed',
});

emulatorFlags.push({
  flags: '--script <file>',
  description:
    'a conversation script (YAML or JSON; schemas/script.schema.json) loaded at start; repeatable (docs/testing.md "Conversation scripts")',
  option: 'scripts',
  repeatable: true,
});

emulatorFlags.push({
  flags: '--faults <json|@file>',
  description:
    'HTTP faults from the start, a JSON array: [{"route":"POST /api/v1/sessions","status":503,"count":2}] (docs/testing.md "Faults")',
  option: 'faults',
  parse: (v: string) => {
    const value = readData(v, process.cwd(), '--faults');
    if (!Array.isArray(value)) throw new Error('--faults must be a JSON array of faults');
    return value;
  },
});

/** Generation knobs (issue 10; src/emulator/generations/options.ts). */
emulatorFlags.push(
  {
    flags: '--render-cells <n>',
    description: 'concurrent speak renders per box (429 at_capacity when all are busy)',
    option: 'renderCells',
    parse: (v: string) => {
      const n = int('--render-cells')(v);
      if (n < 1) throw new Error('--render-cells takes at least 1');
      return n;
    },
    default: 2,
  },
  {
    flags: '--allow-remote-media',
    description:
      'speak fetches media URLs from any host (off by default: loopback URLs and data: URIs only)',
    option: 'allowRemoteMedia',
  },
);
/** Inference family knobs (issue 11). */
emulatorFlags.push(...inferenceFlags);
/** The edge's pluggable parts (issue 8; docs/edge.md): the in-process boxes use them. */
emulatorFlags.push(
  {
    flags: '--asr-url <url>',
    description:
      'OpenAI-compatible /audio/transcriptions base URL the edge recognises speech with (key from AVATAR_ASR_API_KEY)',
    option: 'asrUrl',
    parse: httpUrlFlag('--asr-url'),
  },
  {
    flags: '--llm-url <url>',
    description:
      'OpenAI-compatible chat base URL the edge brain uses (key from AVATAR_LLM_API_KEY)',
    option: 'llmUrl',
    parse: httpUrlFlag('--llm-url'),
  },
  { flags: '--llm-model <name>', description: 'model name sent to --llm-url', option: 'llmModel' },
  {
    flags: '--tts-url <url>',
    description:
      'OpenAI-compatible /audio/speech base URL every edge reply is spoken by (key from AVATAR_TTS_API_KEY; a failed call falls back to the local voice; docs/media.md)',
    option: 'ttsUrl',
    parse: httpUrlFlag('--tts-url'),
  },
);
