/**
 * Protocol v2 (`/v2/session`, subprotocol `svc.avatar.v2`): message formats are not shown
 * in the spec; they follow docs/protocol-v2.md, written with the edge.
 */
import type { EdgeConnection } from './edge-events.js';
import type { EdgeConnectOptions } from './edge-v1.js';

export function connectV2(_opts: EdgeConnectOptions): EdgeConnection {
  throw new Error('protocol 2 is not supported by this client yet (docs/protocol-v2.md); use protocol 1');
}
