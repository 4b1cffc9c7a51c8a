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

/**
 * `s` without its trailing slashes, by a loop: the regex `/\/+$/` is quadratic on a long
 * run of slashes that does not end the string (200 000 of them: tens of seconds).
 */
export function trimTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2f) end--;
  return end === s.length ? s : s.slice(0, end);
}

function edgeUrl(connectUrl: string, path: string, token: string): URL {
  const base = new URL(connectUrl);
  if (!/^(https?|wss?):$/.test(base.protocol))
    throw new TypeError(`connect_url is not an http(s) URL: ${connectUrl}`);
  // connect_url is a base: keep any path prefix it carries.
  const u = new URL(trimTrailingSlashes(base.pathname) + path, base);
  u.searchParams.set('token', token);
  return u;
}
