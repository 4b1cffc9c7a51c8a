// An edge socket for the benches: JSON messages parsed, binary ones as `{ bin }`, listeners
// added with `on` (which returns its remover); `waitFor` resolves with the first message a
// predicate accepts.
import { WebSocket } from 'ws';
import { edgeSocketUrl } from '../../dist/contract/edge/url.js';

export function sock(m, path) {
  const ws = new WebSocket(edgeSocketUrl(m.connect_url, path, m.session_token));
  const listeners = new Set();
  ws.on('message', (d, bin) => {
    const msg = bin ? { bin: d } : JSON.parse(d.toString());
    for (const l of listeners) l(msg);
  });
  return new Promise((res, rej) => {
    ws.once('open', () => res({ ws, on: (f) => (listeners.add(f), () => listeners.delete(f)) }));
    ws.once('error', rej);
  });
}

export const waitFor = (s, pred, timeoutMs = 20_000) =>
  new Promise((res, rej) => {
    const t = setTimeout(() => (off(), rej(new Error('timeout'))), timeoutMs);
    const off = s.on((m) => pred(m) && (clearTimeout(t), off(), res(m)));
  });
