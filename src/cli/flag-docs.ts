/**
 * What a field flag's placeholder and help say when the schema alone cannot (issue 7 item
 * 10): fields the service validates by hand are `z.unknown()` in the contract (so they get
 * the spec's own error codes), which would make them `<json>`; here they get their real
 * type. Fields the contract leaves undescribed get a line. Keyed by API field name.
 */
import type { FieldFlag, FlagKind } from './field-flag.js';

interface FlagDoc {
  kind?: FlagKind;
  arg?: string;
  description?: string;
}

const docs: Record<string, FlagDoc> = {
  session_cap_seconds: { kind: 'number', arg: 'seconds' },
  recording: { kind: 'boolean' },
  observability: { kind: 'boolean' },
  response_language: { kind: 'string', arg: 'tag' },
  context: {
    arg: 'json|@file',
    description: 'session context { system_prompt?, backstory?, memory?, history? }',
  },
  notify: { arg: 'json|@file' },
  name: { arg: 'name', description: 'display name' },
  plan: { arg: 'plan', description: 'plan of the workspace (free, pro, enterprise, demo)' },
  kind: { arg: 'kind', description: 'kind of the resource' },
  scopes: {
    arg: 'scope...',
    description: 'scopes of the key, e.g. sessions:write avatars:read (default *)',
  },
  allowed_origins: { arg: 'origin...', description: 'browser origins a publishable key accepts' },
  workspace_id: { arg: 'id', description: 'workspace id (when the key is not workspace-bound)' },
  platform: { arg: 'platform', description: 'device platform, e.g. ios, android, web' },
  iss: { arg: 'url', description: 'issuer (the iss claim of its id_tokens)' },
  aud: {
    arg: 'audience',
    description: 'audience (the aud claim: the client id of the native app)',
  },
  jwks_uri: { arg: 'url', description: "URL of the issuer's JWKS" },
  algs: { arg: 'alg...', description: 'accepted signing algorithms (RS256, ES256)' },
  description: { arg: 'text', description: 'free text shown in listings' },
  events: { arg: 'event...' },
  avatar_ref: { arg: 'id' },
  voice_ref: { arg: 'id' },
  queue_ticket: { arg: 'ticket' },
  secret: { arg: 'secret' },
  persona: { arg: 'persona' },
  source_persona: { arg: 'persona' },
  native_language: { arg: 'tag' },
  system_prompt: { arg: 'text' },
  backstory: { arg: 'text' },
};

/** Docs are keyed by snake_case names; some bodies spell fields in camelCase (`allowedOrigins`). */
const snake = (field: string) => field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const docOf = (f: FieldFlag): FlagDoc | undefined => docs[snake(f.field)];

/** The flag's kind after the table (a `z.unknown()` field may be a number or a boolean). */
export function withDocs(f: FieldFlag): FieldFlag {
  const d = docOf(f);
  if (!d) return f;
  return { ...f, kind: d.kind ?? f.kind, description: f.description || d.description || '' };
}

/** `<seconds>`, `<id>`, `<url>`, `<json|@file>`, `<scope...>`: the placeholder names the type. */
export function placeholder(f: FieldFlag): string {
  if (f.kind === 'boolean') return '';
  const d = docOf(f);
  if (d?.arg) return `<${d.arg}>`;
  if (f.kind === 'json') return '<json|@file>';
  if (f.kind === 'number') return '<number>';
  const name = snake(f.field);
  const base = /(^|_)id$/.test(name)
    ? 'id'
    : /(^|_)(uri|url|hook)$/.test(name)
      ? 'url'
      : f.kind === 'list' && f.item === 'number'
        ? 'n'
        : 'text';
  return f.kind === 'list' ? `<${base}...>` : `<${base}>`;
}

/** Help text of a field flag: its description, the type in words when it has none. */
export function describeFlag(f: FieldFlag): string {
  const what =
    f.description ||
    (f.kind === 'json'
      ? 'JSON value'
      : f.kind === 'list'
        ? 'one or more values'
        : snake(f.field).replace(/_/g, ' '));
  const min = f.minLength && f.minLength > 1 ? f.minLength : undefined;
  const extra =
    f.kind === 'json'
      ? ' (inline JSON, or @file)'
      : min && f.maxLength
        ? ` (${min} to ${f.maxLength} characters)`
        : min
          ? ` (at least ${min} characters)`
          : '';
  return `${what}${extra}${f.required ? ' (required)' : ''}`;
}
