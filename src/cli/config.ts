import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import envPaths from 'env-paths';
import { CliError, ExitCode } from './exit-codes.js';

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
export const emulatorStatePath = (env: Env) => join(stateDir(env), 'emulator.json');

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
    throw new CliError(`config file ${path} is not readable JSON (${(e as Error).message}): fix or remove it`, ExitCode.usage);
  }
  if (!cfg || typeof cfg !== 'object' || Array.isArray(cfg)) {
    throw new CliError(`config file ${path} is not a JSON object: fix or remove it`, ExitCode.usage);
  }
  const c = cfg as Partial<ConfigFile>;
  const profiles = c.profiles && typeof c.profiles === 'object' && !Array.isArray(c.profiles) ? c.profiles : {};
  return { ...c, profiles };
}

/** A profile by name; only the file's own entries (`__proto__` or `toString` are not profiles). */
export function profileNamed(cfg: ConfigFile, name: string): Profile | undefined {
  return Object.hasOwn(cfg.profiles, name) ? cfg.profiles[name] : undefined;
}

export function writeConfig(env: Env, cfg: ConfigFile): void {
  writeJson(configPath(env), cfg);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running local emulator, if its state file names a live process. */
export function readEmulatorState(env: Env): EmulatorState | undefined {
  const s = readJson<EmulatorState>(emulatorStatePath(env));
  return s && alive(s.pid) ? s : undefined;
}

export function writeEmulatorState(env: Env, s: EmulatorState): void {
  writeJson(emulatorStatePath(env), s);
}

/** Remove the state file if it still describes this process. */
export function clearEmulatorState(env: Env, pid: number): void {
  const path = emulatorStatePath(env);
  const s = readJson<EmulatorState>(path);
  if (s && s.pid === pid) rmSync(path, { force: true });
}

export interface Connection {
  baseUrl: string;
  apiKey?: string;
  workspaceId?: string;
  /** Where the settings came from, for `avatar config show` and error messages. */
  source: string;
}

export interface GlobalFlags {
  baseUrl?: string;
  apiKey?: string;
  workspace?: string;
  profile?: string;
}

/**
 * Resolve connection settings: flags, then environment (AVATAR_BASE_URL, AVATAR_API_KEY,
 * AVATAR_WORKSPACE_ID), then the named or default profile, then the running local
 * emulator. Each field falls through separately.
 */
export function resolveConnection(flags: GlobalFlags, env: Env): Connection | undefined {
  const cfg = readConfig(env);
  const profileName = flags.profile ?? env.AVATAR_PROFILE ?? cfg.default_profile;
  const profile = profileName ? profileNamed(cfg, profileName) : undefined;
  // A profile asked for by name (flag or AVATAR_PROFILE) must exist; only the default may be missing.
  if ((flags.profile ?? env.AVATAR_PROFILE) && !profile) return undefined;
  const emu = readEmulatorState(env);
  const baseUrl = flags.baseUrl ?? env.AVATAR_BASE_URL ?? profile?.base_url ?? emu?.base_url;
  if (!baseUrl) return undefined;
  const sameAsEmulator = emu && baseUrl.replace(/\/$/, '') === emu.base_url;
  const apiKey = flags.apiKey ?? env.AVATAR_API_KEY ?? profile?.api_key ?? (sameAsEmulator ? emu.secret_key : undefined);
  const workspaceId =
    flags.workspace ?? env.AVATAR_WORKSPACE_ID ?? profile?.workspace_id ?? (sameAsEmulator ? emu.workspace_id : undefined);
  const source = flags.baseUrl
    ? 'flags'
    : env.AVATAR_BASE_URL
      ? 'environment'
      : profile?.base_url
        ? `profile ${profileName}`
        : 'local emulator';
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, workspaceId, source };
}
