/**
 * The config group (spec 2 "Config group", spec 7 "Config and profiles"): one catalog of
 * keys with types, defaults and ranges, validated the same way for a mint `config`
 * (errors `invalid_config`) and for a stored profile/version `config_json` (errors
 * `invalid_config_json`, where the session-only `render` key is refused too).
 */
import { configDetail, ErrorCode } from '../errors.js';
import { Limits } from '../limits.js';
import { accept, isPlainObject, reject, serializedBytes, type Validation } from './result.js';

interface BooleanKey {
  type: 'boolean';
  default: boolean;
  sessionOnly?: boolean;
}
interface IntegerKey {
  type: 'integer';
  default: number;
  min: number;
  max: number;
  sessionOnly?: boolean;
}

/** Ours (spec 7 names no code for a non-object config): same vocabulary, detail `config_not_object`. */
export const CONFIG_NOT_OBJECT = 'config_not_object';

/** spec 2 "Config group". */
export const ConfigCatalog = {
  greeting_enabled: { type: 'boolean', default: true },
  greeting_hold_ms: { type: 'integer', default: 2000, min: 0, max: 5000 },
  render: { type: 'boolean', default: true, sessionOnly: true },
} as const satisfies Record<string, BooleanKey | IntegerKey>;

export type ConfigKey = keyof typeof ConfigCatalog;

/** A fully resolved config: every key has a value. */
export interface ResolvedConfig {
  greeting_enabled: boolean;
  greeting_hold_ms: number;
  render: boolean;
}

/** A partial config as stored or sent, nulls already dropped. */
export type ConfigGroup = Partial<ResolvedConfig>;

export const CONFIG_DEFAULTS: ResolvedConfig = {
  greeting_enabled: ConfigCatalog.greeting_enabled.default,
  greeting_hold_ms: ConfigCatalog.greeting_hold_ms.default,
  render: ConfigCatalog.render.default,
};

/**
 * Where the config comes from decides the error code: a mint `config` answers
 * `invalid_config`; a profile or version `config_json` answers `invalid_config_json`
 * and cannot hold session-only keys (spec 7).
 */
export type ConfigSource = 'session' | 'profile';

/**
 * Validate a config group. `null`/absent/`{}` and `{ key: null }` are all the empty
 * config (spec 2: a null value means unset and is dropped).
 *
 * Check order (ours; spec 7 names the codes, not their order): the serialized size
 * first (it is the only check that can fire on a body full of junk), then key by key in
 * the order sent: catalog membership, session-only (profiles), type, range.
 */
export function validateConfig(input: unknown, source: ConfigSource): Validation<ConfigGroup> {
  const code = source === 'session' ? ErrorCode.invalidConfig : ErrorCode.invalidConfigJson;
  const fail = (detail: string, message: string) => reject(400, code, message, detail);
  if (input === undefined || input === null) return accept({});
  if (!isPlainObject(input)) return fail(CONFIG_NOT_OBJECT, 'config must be a JSON object');
  if (serializedBytes(input) > Limits.configBytes) {
    return fail(configDetail.tooLarge, `config is over ${Limits.configBytes} serialized bytes`);
  }
  const out: Record<string, boolean | number> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!Object.hasOwn(ConfigCatalog, key))
      return fail(configDetail.unknownKey(key), `unknown config key ${key}`);
    const spec = ConfigCatalog[key as ConfigKey] as BooleanKey | IntegerKey;
    if (value === null) continue;
    if (source === 'profile' && spec.sessionOnly) {
      return fail(
        configDetail.sessionOnly(key),
        `${key} is session-only and cannot be stored in a profile`,
      );
    }
    if (spec.type === 'boolean') {
      if (typeof value !== 'boolean')
        return fail(configDetail.notBoolean(key), `${key} must be a boolean`);
      out[key] = value;
    } else {
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        return fail(configDetail.notInteger(key), `${key} must be an integer`);
      }
      if (value < spec.min || value > spec.max) {
        return fail(
          configDetail.outOfRange(key),
          `${key} must be between ${spec.min} and ${spec.max}`,
        );
      }
      out[key] = value;
    }
  }
  return accept(out as ConfigGroup);
}

/**
 * Per-key merge (spec 2): session config, else profile config_json, else the fleet
 * default. Inputs must already be validated (nulls dropped).
 */
export function mergeConfig(
  session: ConfigGroup | null | undefined,
  profile: ConfigGroup | null | undefined,
  fleetDefaults: ResolvedConfig = CONFIG_DEFAULTS,
): ResolvedConfig {
  const out = { ...fleetDefaults };
  for (const key of Object.keys(ConfigCatalog) as ConfigKey[]) {
    const v = session?.[key] ?? profile?.[key];
    if (v !== undefined) (out as Record<ConfigKey, boolean | number>)[key] = v;
  }
  return out;
}
