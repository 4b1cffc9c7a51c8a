import { afterAll, beforeAll, expect } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start.js';
import type { EmulatorOptions } from '../../src/emulator/options.js';
import { AvatarClient } from '../../src/client/client.js';

export interface ApiInit {
  /** Defaults: PUT with `raw`, POST with `body`, else GET. */
  method?: string;
  /** JSON body. */
  body?: unknown;
  /** Raw bytes (uploads), sent with `type` as Content-Type. */
  raw?: Uint8Array;
  type?: string;
  /** Bearer key; defaults to the workspace-bound secret key. */
  key?: string;
  headers?: Record<string, string>;
}

export interface ApiAnswer {
  status: number;
  type: string;
  headers: Headers;
  /** Parsed JSON, the bytes of any other body, or undefined for an empty one. */
  body: any;
}

/** One request to an emulator with its secret key, the answer decoded for assertions. */
export async function apiCall(
  emu: RunningEmulator,
  path: string,
  init: ApiInit = {},
): Promise<ApiAnswer> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${init.key ?? emu.keys.secretKey}`);
  if (init.raw) headers.set('content-type', init.type ?? 'application/octet-stream');
  else if (init.body !== undefined) headers.set('content-type', 'application/json');
  const res = await fetch(emu.baseUrl + path, {
    method: init.method ?? (init.raw ? 'PUT' : init.body !== undefined ? 'POST' : 'GET'),
    body: init.raw
      ? Buffer.from(init.raw)
      : init.body === undefined
        ? undefined
        : JSON.stringify(init.body),
    headers,
  });
  const type = res.headers.get('content-type') ?? '';
  const bytes = Buffer.from(await res.arrayBuffer());
  const body =
    bytes.length === 0
      ? undefined
      : type.includes('json')
        ? JSON.parse(bytes.toString('utf8'))
        : bytes;
  return { status: res.status, type, headers: res.headers, body };
}

/** `init` with the operator credential, and JSON for a write (docs/security.md). */
export function operatorInit(emu: RunningEmulator, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${emu.operatorToken}`);
  const write = (init.method ?? 'GET').toUpperCase() !== 'GET';
  if (write && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return { ...init, headers, body: write ? (init.body ?? '{}') : init.body };
}

export interface EmulatorHandle {
  readonly emu: RunningEmulator;
  readonly baseUrl: string;
  /** Workspace-bound secret key client. */
  readonly client: AvatarClient;
  /** Client with another key (and optional Origin). */
  as(apiKey: string | undefined, origin?: string): AvatarClient;
  /** `apiCall` on this emulator. */
  api(path: string, init?: ApiInit): Promise<ApiAnswer>;
  /** Plain fetch against the emulator with an optional bearer key. */
  fetch(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /** Fetch an operator route (`/_emulator/*`) with the operator token; a POST sends JSON (`{}` when no body). */
  op(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * Start a real emulator on port 0 (loopback, in memory) for the file's tests and stop it
 * in afterAll (STYLE: integration tests start a real emulator).
 */
export function useEmulator(opts: Partial<EmulatorOptions> = {}): EmulatorHandle {
  let emu: RunningEmulator | undefined;
  const clients: AvatarClient[] = [];
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, host: '127.0.0.1', inMemory: true, ...opts });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await emu?.stop();
  });
  const must = () => {
    if (!emu) throw new Error('emulator not started (use inside tests)');
    return emu;
  };
  let defaultClient: AvatarClient | undefined;
  return {
    get emu() {
      return must();
    },
    get baseUrl() {
      return must().baseUrl;
    },
    get client() {
      if (!defaultClient) {
        defaultClient = new AvatarClient({
          baseUrl: must().baseUrl,
          apiKey: must().keys.secretKey,
        });
        clients.push(defaultClient);
      }
      return defaultClient;
    },
    as(apiKey, origin) {
      const c = new AvatarClient({ baseUrl: must().baseUrl, apiKey, origin });
      clients.push(c);
      return c;
    },
    api(path, init) {
      return apiCall(must(), path, init);
    },
    fetch(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      return fetch(must().baseUrl + path, { ...rest, headers });
    },
    op(path, init = {}) {
      return fetch(must().baseUrl + path, operatorInit(must(), init));
    },
  };
}

/** A minted live session: what the edge tests connect with. */
export type Minted = {
  session_id: string;
  session_token: string;
  connect_url: string;
  seat_token: string;
};

/**
 * Mint a session of the stock persona `ava` with no greeting (and by default no rendering),
 * expecting 201: `extra` goes into the body, `config` into its config.
 */
export async function mintSession(
  h: EmulatorHandle,
  extra: Record<string, unknown> = {},
  config: Record<string, unknown> = { render: false },
): Promise<Minted> {
  const r = await h.api('/api/v1/sessions', {
    body: { persona: 'ava', config: { greeting_enabled: false, ...config }, ...extra },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Minted;
}
