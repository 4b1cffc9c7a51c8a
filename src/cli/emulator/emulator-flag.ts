import type { EmulatorOptions } from '../../emulator/options.js';

/** One flag of `avatar emulator start` (its own module: emulator-flags and emulator-inference-flags both need it). */
export interface EmulatorFlag {
  flags: string;
  description: string;
  option: keyof EmulatorOptions & string;
  /** Throws an Error whose message names the flag. */
  parse?: (v: string) => unknown;
  default?: unknown;
  /** May be given more than once: the option is the list of values, in order. */
  repeatable?: true;
}

/** Commander's collector of a repeatable flag's values. */
export const collect = (v: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  v,
];
