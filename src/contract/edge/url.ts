/**
 * Edge addresses (spec 4.6): the socket URL is `connect_url` with `https` swapped for
 * `wss` (and `http` for `ws` on a local emulator), the session token as `?token=`.
 */
export function edgeSocketUrl(connectUrl: string, path: string, token: string): string {
  const u = edgeUrl(connectUrl, path, token);
  u.protocol = u.protocol === 'https:' ? 'wss:' : u.protocol === 'http:' ? 'ws:' : u.protocol;
  return u.toString();
}

/** An HTTP URL on the edge (`POST /chat?token=`). */
export function edgeHttpUrl(connectUrl: string, path: string, token: string): string {
  return edgeUrl(connectUrl, path, token).toString();
}

function edgeUrl(connectUrl: string, path: string, token: string): URL {
  const base = new URL(connectUrl);
  if (!/^(https?|wss?):$/.test(base.protocol))
    throw new TypeError(`connect_url is not an http(s) URL: ${connectUrl}`);
  // connect_url is a base: keep any path prefix it carries.
  const u = new URL(base.pathname.replace(/\/+$/, '') + path, base);
  u.searchParams.set('token', token);
  return u;
}
