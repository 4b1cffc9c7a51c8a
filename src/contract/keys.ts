/** Credential formats of spec 2 and 5.2. */
export type KeyKind = 'secret' | 'publishable' | 'device';

export const KeyPrefix: Record<KeyKind, string> = {
  secret: 'avatar_',
  publishable: 'pk_',
  device: 'dt_',
};

export const KEY_PATTERN = /^(avatar|pk|dt)_([0-9a-f]{8})\.([0-9a-f]{56})$/;

export interface ParsedKey {
  kind: KeyKind;
  /** The 8-hex public part, used to look the key up before the constant-time compare. */
  lookup: string;
}

export function parseKey(raw: string): ParsedKey | null {
  const m = KEY_PATTERN.exec(raw);
  if (!m) return null;
  const kind: KeyKind = m[1] === 'avatar' ? 'secret' : m[1] === 'pk' ? 'publishable' : 'device';
  return { kind, lookup: m[2]! };
}

/** Spec 2: `token_prefix` is the first 8 characters of the raw token, for display. */
export function tokenPrefix(raw: string): string {
  return raw.slice(0, 8);
}

export function formatKey(kind: KeyKind, lookup: string, secret: string): string {
  return `${KeyPrefix[kind]}${lookup}.${secret}`;
}
