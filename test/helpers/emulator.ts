import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start.js';
import type { EmulatorOptions } from '../../src/emulator/options.js';
import { AvatarClient } from '../../src/client/client.js';

export interface EmulatorHandle {
  readonly emu: RunningEmulator;
  readonly baseUrl: string;
  /** Workspace-bound secret key client. */
  readonly client: AvatarClient;
  /** Client with another key (and optional Origin). */
  as(apiKey: string | undefined, origin?: string): AvatarClient;
  /** Plain fetch against the emulator with an optional bearer key. */
  fetch(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
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
        defaultClient = new AvatarClient({ baseUrl: must().baseUrl, apiKey: must().keys.secretKey });
        clients.push(defaultClient);
      }
      return defaultClient;
    },
    as(apiKey, origin) {
      const c = new AvatarClient({ baseUrl: must().baseUrl, apiKey, origin });
      clients.push(c);
      return c;
    },
    fetch(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      return fetch(must().baseUrl + path, { ...rest, headers });
    },
  };
}
