// A minimal app server for avatar/browser (docs/browser.md). The secret key stays here:
// POST /session mints and hands the page only connect_url and session_token; POST /chat
// relays a v1 typed turn to the edge (which sets no CORS headers). Run:
//   AVATAR_BASE_URL=http://127.0.0.1:4780 AVATAR_API_KEY=avatar_... node server.mjs
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const { AVATAR_BASE_URL: base, AVATAR_API_KEY: key, AVATAR_PUBLISHABLE_KEY: pk = '', PORT = '8080' } = process.env;
const dist = join(dirname(fileURLToPath(import.meta.resolve('avatar/browser'))), '..');
const here = dirname(fileURLToPath(import.meta.url));
const edges = new Map(); // session_token -> connect_url, for the relay (never an open proxy)

// ---- the relay: 20 lines
async function relay(path, body) {
  if (path === '/session') {
    const res = await fetch(`${base}/api/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ persona: body.persona ?? 'ava', ...(body.v2 ? { protocol_versions: [2] } : {}) }),
    });
    const m = await res.json();
    if (res.status !== 201) return [res.status, m]; // 202 (queued) included: show it, retry later
    edges.set(m.session_token, m.connect_url);
    return [201, { connect_url: m.connect_url, session_token: m.session_token, protocol_version: m.protocol_version }];
  }
  const edge = edges.get(body.session_token); // path === '/chat'
  if (!edge) return [404, { error: 'unknown_session' }];
  const res = await fetch(`${edge}/chat?token=${encodeURIComponent(body.session_token)}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: body.text }),
  });
  return [res.status, await res.json()];
}

// ---- static files: the pages, and the client from the package (browser/ and contract/edge/)
const pages = { '/': 'index.html', '/publishable.html': 'publishable.html' };
createServer(async (req, res) => {
  const send = (status, type, data) => res.writeHead(status, { 'content-type': type }).end(data);
  try {
    if (req.method === 'POST' && (req.url === '/session' || req.url === '/chat')) {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const [status, out] = await relay(req.url, JSON.parse(raw || '{}'));
      return send(status, 'application/json', JSON.stringify(out));
    }
    if (req.url === '/config.json') return send(200, 'application/json', JSON.stringify({ baseUrl: base, publishableKey: pk }));
    if (pages[req.url]) return send(200, 'text/html', await readFile(join(here, pages[req.url])));
    const file = normalize(req.url ?? '').replace(/^\/avatar\//, '');
    if (/^(browser|contract\/edge)\/[\w-]+\.js$/.test(file)) return send(200, 'text/javascript', await readFile(join(dist, file)));
    send(404, 'text/plain', 'not found');
  } catch (e) {
    send(502, 'application/json', JSON.stringify({ error: 'relay_failed', message: String(e) }));
  }
}).listen(Number(PORT), '127.0.0.1', function () {
  console.log(`example app on http://127.0.0.1:${this.address().port}/`);
});
