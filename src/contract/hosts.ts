/**
 * The Host check of every local server (the control plane and each edge box), against DNS
 * rebinding: a foreign page whose name was rebound to 127.0.0.1 reaches the server with its
 * own name in `Host` (docs/security.md). Accepted: `localhost`, `127.0.0.1`, `[::1]`, the
 * bound address, and the names given by `--allowed-hosts` (an entry `.example.com` also
 * accepts its subdomains; `*` accepts any Host), each with any port. Pure: the servers
 * (src/emulator/start.ts, src/edge/box/box.ts) answer the refusal.
 */

/** Longest Host header read (a DNS name is at most 253 characters, plus `[...]` and `:port`). */
const MAX_HOST = 300;
// reg-name or IPv4, or a bracketed IPv6 literal; then an optional port
const HOST_RE = /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?)(?::(\d{1,5}))?$/i;

export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export interface HostRefusal {
  status: 400 | 421;
  error: 'invalid_request' | 'host_not_allowed';
  message: string;
}

/** `::1` -> `[::1]`; names lowercased, without a trailing dot. */
export function hostName(address: string): string {
  const a = address.trim().toLowerCase().replace(/\.$/, '');
  return a.includes(':') && !a.startsWith('[') ? `[${a}]` : a;
}

/** The hostname of a Host header (no port), lowercased; null when it is not a valid Host. */
export function parseHost(header: string | undefined): string | null {
  if (header === undefined || header.length === 0 || header.length > MAX_HOST) return null;
  const m = HOST_RE.exec(header);
  if (!m) return null;
  if (m[2] !== undefined && Number(m[2]) > 65_535) return null;
  return hostName(m[1]!);
}

/**
 * Names one server accepts: loopback, its bound address(es), and `--allowed-hosts`. Built
 * once per server; `bound` may be filled after listen (the resolved address).
 */
export class HostPolicy {
  private readonly names = new Set<string>(LOOPBACK_HOSTS);
  private readonly suffixes: string[] = [];
  private any = false;

  constructor(allowedHosts: readonly string[] = [], bound: readonly string[] = []) {
    for (const h of allowedHosts) {
      const n = h.trim().toLowerCase();
      if (n === '') continue;
      if (n === '*') this.any = true;
      else if (n.startsWith('.')) this.suffixes.push(n.replace(/\.$/, ''));
      else this.names.add(hostName(n));
    }
    this.bind(...bound);
  }

  /** Accept the address the server is bound to (`0.0.0.0` itself is not a Host anyone sends, but is harmless). */
  bind(...addresses: string[]): void {
    for (const a of addresses) if (a) this.names.add(hostName(a));
  }

  /** True when this name (no port) may be served. */
  allows(name: string): boolean {
    return (
      this.any ||
      this.names.has(name) ||
      this.suffixes.some((s) => name === s.slice(1) || name.endsWith(s))
    );
  }

  /** Null when the Host header may be served; else the answer (400 malformed, 421 foreign). */
  check(header: string | undefined): HostRefusal | null {
    const name = parseHost(header);
    if (name === null) {
      const what =
        header === undefined
          ? 'missing'
          : header.length === 0
            ? 'empty'
            : header.length > MAX_HOST
              ? `longer than ${MAX_HOST} characters`
              : 'malformed';
      return {
        status: 400,
        error: 'invalid_request',
        message: `Host header ${what}: send Host: localhost:<port> (or a name given with --allowed-hosts)`,
      };
    }
    if (this.allows(name)) return null;
    return {
      status: 421,
      error: 'host_not_allowed',
      message: `Host ${name} is not served here (DNS rebinding guard): use localhost or 127.0.0.1, or start with --allowed-hosts ${name} (docs/security.md)`,
    };
  }
}

/** True for an address that only this machine can reach (a bind wider than this gets a warning). */
export const isLoopbackHost = (host: string): boolean =>
  /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(host.trim());

/** Comma-separated `--allowed-hosts a,b` (also accepts an array from startEmulator()). */
export function allowedHostsList(v: unknown): string[] {
  if (Array.isArray(v))
    return v
      .map(String)
      .map((s) => s.trim())
      .filter(Boolean);
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return [];
}

/** A Node response for a refusal (HTTP/1.1 text, the JSON envelope, connection closed). */
export function refusalText(r: HostRefusal): string {
  const body = JSON.stringify({ error: r.error, message: r.message });
  const reason = r.status === 421 ? 'Misdirected Request' : 'Bad Request';
  return `HTTP/1.1 ${r.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
