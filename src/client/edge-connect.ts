/**
 * Connect to the edge a mint assigned (spec 4.6): v1's three sockets, or v2's one socket
 * when the mint negotiated `protocol_version: 2`.
 */
import type { EdgeConnection } from './edge-events.js';
import { connectV1, type EdgeConnectOptions } from './edge-v1.js';

export interface ConnectOptions extends EdgeConnectOptions {
  /** 1 (default) or 2 (the mint's `protocol_version`). */
  protocol?: 1 | 2;
}

export async function connectEdge(opts: ConnectOptions): Promise<EdgeConnection> {
  if (opts.protocol === 2) {
    const { connectV2 } = await import('./edge-v2.js');
    return connectV2(opts);
  }
  return connectV1(opts);
}
