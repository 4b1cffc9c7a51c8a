import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import envPaths from 'env-paths';
import { CliError, ExitCode } from './exit-codes.js';
import { alive } from '../emulator/pid-alive.js';

/** A named set of connection settings in the config file. */
export interface Profile {
  base_url?: string;
  api_key?: string;
  workspace_id?: string;
}

export interface ConfigFile {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

/** What `avatar emulator start` leaves behind so the CLI finds it without flags. */
export interface EmulatorState {
  pid: number;
  base_url: string;
  workspace_id: string;
  org_id: string;
  secret_key: string;
  dashboard_key: string;
  data_dir: string | null;
  started_at: number;
}

type Env = Record<string, string | undefined>;

/** `$AVATAR_CONFIG_DIR`, else the platform config dir (XDG_CONFIG_HOME/avatar on Linux). */
export function configDir(env: Env): string {
  if (env.AVATAR_CONFIG_DIR) return env.AVATAR_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'avatar');
  return envPaths('avatar', { suffix: '' }).config;
}

/** `$AVATAR_STATE_DIR`, else XDG_STATE_HOME/avatar (~/.local/state/avatar). */
export function stateDir(env: Env): string {
  if (env.AVATAR_STATE_DIR) return env.AVATAR_STATE_DIR;
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'avatar');
  if (process.platform === 'linux') return join(env.HOME ?? homedir(), '.local', 'state', 'avatar');
  return envPaths('avatar', { suffix: '' }).data;
}

export const configPath = (env: Env) => join(configDir(env), 'config.json');
/** One discovery record per running emulator (issue 7 item 3), `<pid>-<port>.json`. */
export const emulatorsDir = (env: Env) => join(stateDir(env), 'emulators');

function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Write atomically (temp file + rename), owner-only: the files hold keys. */
function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * The config file, or an empty one when there is none. A file that is not a JSON object
 * is a usage error naming it: it is never silently replaced (it may hold the only copy
 * of a key).
 */
export function readConfig(env: Env): ConfigFile {
  const path = configPath(env);
  if (!existsSync(path)) return { profiles: {} };
  let cfg: unknown;
  try {
    cfg = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new CliError(
      `config file ${path} is not readable JSON (${(e as Error).message}): fix or remove it`,
      ExitCode.usage,
    );
  }
  if (!cfg || typeof cfg !== 'object' || Array.isArray(cfg)) {
    throw new CliError(
      `config file ${path} is not a JSON object: fix or remove it`,
      ExitCode.usage,
    );
  }
  const c = cfg as Partial<ConfigFile>;
  const profiles =
    c.profiles && typeof c.profiles === 'object' && !Array.isArray(c.profiles) ? c.profiles : {};
  return { ...c, profiles };
}

/** A profile by name; only the file's own entries (`__proto__` or `toString` are not profiles). */
export function profileNamed(cfg: ConfigFile, name: string): Profile | undefined {
  return Object.hasOwn(cfg.profiles, name) ? cfg.profiles[name] : undefined;
}

export function writeConfig(env: Env, cfg: ConfigFile): void {
  writeJson(configPath(env), cfg);
}

const recordName = (s: Pick<EmulatorState, 'pid' | 'base_url'>) =>
  `${s.pid}-${new URL(s.base_url).port || '80'}.json`;

/**
 * The running local emulators, oldest first. A record whose process is gone (kill -9, a
 * crash) is deleted on the way (pruned), so it never names a dead emulator.
 */
export function listEmulators(env: Env): EmulatorState[] {
  const dir = emulatorsDir(env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const live: EmulatorState[] = [];
  for (const n of names) {
    const s = readJson<EmulatorState>(join(dir, n));
    if (!s || typeof s.pid !== 'number' || typeof s.base_url !== 'string') continue;
    if (alive(s.pid)) live.push(s);
    else rmSync(join(dir, n), { force: true });
  }
  return live.sort((a, b) => a.started_at - b.started_at || a.pid - b.pid);
}

/** Write this emulator's record; returns its path. */
export function writeEmulatorState(env: Env, s: EmulatorState): string {
  const path = join(emulatorsDir(env), recordName(s));
  writeJson(path, s);
  return path;
}

/** Remove the record of this emulator (by pid and base URL); the others stay. */
export function clearEmulatorState(env: Env, s: Pick<EmulatorState, 'pid' | 'base_url'>): void {
  rmSync(join(emulatorsDir(env), recordName(s)), { force: true });
}

/** The emulator whose data dir belongs to `cwd`: `<cwd>/.avatar-emulator`, or cwd inside the data dir. */
function ownsDirectory(s: EmulatorState, cwd: string): boolean {
  if (!s.data_dir) return false;
  const data = resolve(s.data_dir);
  const here = resolve(cwd);
  return data === join(here, '.avatar-emulator') || here === data || here.startsWith(data + sep);
}

export interface EmulatorPick {
  /** The emulator the CLI uses from `cwd`, if one can be told apart. */
  emulator?: EmulatorState;
  /** Why: its data dir is this directory's, or it is the only one running. */
  reason?: 'data dir' | 'only one';
  running: EmulatorState[];
}

/**
 * Which running emulator the CLI talks to from `cwd` (issue 7 item 3): the one of this
 * directory's data dir, else the only one running, else none (the caller says which are
 * running and how to pick).
 */
export function pickEmulator(env: Env, cwd: string): EmulatorPick {
  const running = listEmulators(env);
  const mine = running.filter((s) => ownsDirectory(s, cwd));
  if (mine.length >= 1) return { emulator: mine[mine.length - 1], reason: 'data dir', running };
  if (running.length === 1) return { emulator: running[0], reason: 'only one', running };
  return { running };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Two base URLs of the same service: equal, or the same scheme and port on two names of
 * this machine's loopback (`localhost:4780` is the emulator listening on `127.0.0.1:4780`).
 */
export function sameService(a: string, b: string): boolean {
  let x: URL, y: URL;
  try {
    x = new URL(a);
    y = new URL(b);
  } catch {
    return a === b;
  }
  if (
    x.protocol !== y.protocol ||
    x.port !== y.port ||
    x.pathname.replace(/\/+$/, '') !== y.pathname.replace(/\/+$/, '')
  )
    return false;
  return x.hostname === y.hostname || (LOOPBACK.has(x.hostname) && LOOPBACK.has(y.hostname));
}

/** Two short lines per running emulator, for messages (a long data dir gets its own line). */
export function describeEmulators(list: EmulatorState[]): string {
  return list
    .map((s) => `  ${s.base_url}  (pid ${s.pid})\n    data ${s.data_dir ?? '(in memory)'}`)
    .join('\n');
}

export interface Connection {
  baseUrl: string;
  apiKey?: string;
  workspaceId?: string;
  /** Where the settings came from, for `avatar config show` and error messages. */
  source: string;
  /** What chose the base URL, for the "cannot reach" error (how to go back). */
  chosenBy:
    | { by: 'flag' | 'environment' | 'emulator' }
    | { by: 'profile' | 'default profile'; name: string };
}

export interface GlobalFlags {
  baseUrl?: string;
  apiKey?: string;
  workspace?: string;
  profile?: string;
}

/** An environment variable, with an empty value counting as unset (`AVATAR_API_KEY=`). */
export const envValue = (env: Env, name: string): string | undefined => {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v;
};

/** Why no connection could be resolved, for the usage error. */
export type NoConnection =
  | { missing: 'profile'; name: string }
  | { missing: 'service' }
  | { missing: 'choice'; running: EmulatorState[] };

/**
 * Resolve connection settings: flags, then environment (AVATAR_BASE_URL, AVATAR_API_KEY,
 * AVATAR_WORKSPACE_ID; empty values count as unset), then the named or default profile,
 * then the local emulator picked for `cwd` (pickEmulator). Each field falls through
 * separately; a base URL that is a running emulator's gets that emulator's key and
 * workspace.
 */
export function resolveConnection(
  flags: GlobalFlags,
  env: Env,
  cwd = process.cwd(),
): Connection | undefined {
  const r = resolveConnectionOrWhy(flags, env, cwd);
  return 'baseUrl' in r ? r : undefined;
}

export function resolveConnectionOrWhy(
  flags: GlobalFlags,
  env: Env,
  cwd = process.cwd(),
): Connection | NoConnection {
  const cfg = readConfig(env);
  const named = flags.profile ?? envValue(env, 'AVATAR_PROFILE');
  const profileName = named ?? cfg.default_profile;
  const profile = profileName ? profileNamed(cfg, profileName) : undefined;
  // A profile asked for by name (flag or AVATAR_PROFILE) must exist; only the default may be missing.
  if (named && !profile) return { missing: 'profile', name: named };
  const explicit = flags.baseUrl ?? envValue(env, 'AVATAR_BASE_URL') ?? profile?.base_url;
  const pick = pickEmulator(env, cwd);
  const baseUrl = explicit ?? pick.emulator?.base_url;
  if (!baseUrl)
    return pick.running.length > 1
      ? { missing: 'choice', running: pick.running }
      : { missing: 'service' };
  const trimmed = baseUrl.replace(/\/+$/, '');
  const emu = pick.running.find((s) => sameService(s.base_url, trimmed));
  const apiKey =
    flags.apiKey ?? envValue(env, 'AVATAR_API_KEY') ?? profile?.api_key ?? emu?.secret_key;
  const workspaceId =
    flags.workspace ??
    envValue(env, 'AVATAR_WORKSPACE_ID') ??
    profile?.workspace_id ??
    emu?.workspace_id;
  const source = flags.baseUrl
    ? 'flags'
    : envValue(env, 'AVATAR_BASE_URL')
      ? 'environment'
      : profile?.base_url
        ? `profile ${profileName}`
        : pick.reason === 'data dir'
          ? `local emulator (data dir ${pick.emulator!.data_dir})`
          : 'local emulator';
  const chosenBy: Connection['chosenBy'] = flags.baseUrl
    ? { by: 'flag' }
    : envValue(env, 'AVATAR_BASE_URL')
      ? { by: 'environment' }
      : profile?.base_url
        ? { by: named ? 'profile' : 'default profile', name: profileName! }
        : { by: 'emulator' };
  return { baseUrl: trimmed, apiKey, workspaceId, source, chosenBy };
}

/**
 * What chose a base URL the CLI could not reach, and how to go back (issue 24 item 1): a
 * default profile saved once sends every later command there.
 */
export function unreachableHint(conn: Connection, avatar: string): string {
  const local = /^https?:\/\/(127\.|localhost|\[::1\])/.test(conn.baseUrl);
  const start = `Is the emulator running?\n  start one:  ${avatar} emulator start`;
  const c = conn.chosenBy;
  switch (c.by) {
    case 'emulator':
      return start;
    case 'flag':
      return `the --base-url flag chose this URL${local ? `.\n${start}` : ''}`;
    case 'environment':
      return `AVATAR_BASE_URL chose this URL; unset it to use the configured profile or the local emulator${local ? `.\n${start}` : ''}`;
    case 'profile':
      return `the profile ${c.name} (--profile) chose this URL; leave --profile / AVATAR_PROFILE out to use the default${local ? `.\n${start}` : ''}`;
    case 'default profile':
      return (
        `the default profile ${c.name} chose this URL (every command without --base-url goes there).\n` +
        `  back to the local emulator:  ${avatar} config remove ${c.name}\n` +
        `  another profile by default:  ${avatar} config use NAME   (${avatar} config list names them)` +
        (local ? `\n${start}` : '')
      );
  }
}
