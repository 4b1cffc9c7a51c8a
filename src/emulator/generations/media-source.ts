/**
 * Speak media references to bytes: `data:` URIs decoded in place, http(s) URLs fetched
 * with a bound on size and time. Only loopback hosts are fetched unless the emulator runs
 * with `allowRemoteMedia` (`--allow-remote-media`; ARCHITECTURE: loopback only at run
 * time). Redirects are refused (a redirect could leave loopback). With
 * `immutable_url_for_caching` a fetched URL's bytes are kept and reused (spec 4.10).
 * Every failure here is the caller's media: 400 `invalid_request`, the field in `detail`.
 */
import { BlockList, isIP } from 'node:net';
import type { Clock } from '../clock.js';
import { readCapped } from '../../models/upstream-error.js';
import { ApiError } from '../../server/api-error.js';

export interface MediaFetchOptions {
  allowRemote: boolean;
  timeoutMs: number;
  clock: Clock;
}

export interface FetchedMedia {
  bytes: Buffer;
  /** Declared type (data: URI or Content-Type), lower case, may be empty. */
  type: string;
  /** Served from the immutable-URL cache. */
  cached: boolean;
}

// The message says which medium; `detail` says why (the CLI prints both, so never the same words twice).
const bad = (field: string, why: string) =>
  new ApiError(400, 'invalid_request', {
    message: `cannot use ${field}`,
    detail: `${field}: ${why}`,
  });

/** 127.0.0.0/8 and ::1; BlockList also matches IPv4-mapped IPv6 (WHATWG URL writes [::ffff:127.0.0.1] as [::ffff:7f00:1]). */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const family = isIP(h);
  return family !== 0 && LOOPBACK.check(h, family === 4 ? 'ipv4' : 'ipv6');
}

function fromDataUri(field: string, uri: string, maxBytes: number): FetchedMedia {
  const comma = uri.indexOf(',');
  if (comma < 0) throw bad(field, 'malformed data: URI');
  const meta = uri.slice(5, comma).toLowerCase();
  const payload = uri.slice(comma + 1);
  const base64 = meta.endsWith(';base64');
  if (base64 && payload.length > Math.ceil((maxBytes * 4) / 3) + 4)
    throw bad(field, `over ${maxBytes} bytes`);
  let bytes: Buffer;
  try {
    bytes = base64
      ? Buffer.from(payload, 'base64')
      : Buffer.from(decodeURIComponent(payload), 'utf8');
  } catch {
    throw bad(field, 'malformed data: URI'); // a stray % escape (URIError)
  }
  if (bytes.length === 0) throw bad(field, 'empty data: URI');
  if (bytes.length > maxBytes) throw bad(field, `over ${maxBytes} bytes`);
  return { bytes, type: meta.split(';')[0]!, cached: false };
}

/** Immutable-URL cache: bounded in entries and bytes, oldest out first. */
export class MediaCache {
  private readonly map = new Map<string, FetchedMedia>();
  private bytes = 0;
  constructor(
    private readonly maxEntries = 64,
    private readonly maxBytes = 256 * 1024 * 1024,
  ) {}
  get(url: string): FetchedMedia | undefined {
    const hit = this.map.get(url);
    if (hit) {
      this.map.delete(url);
      this.map.set(url, hit);
    }
    return hit;
  }
  set(url: string, media: FetchedMedia): void {
    if (media.bytes.length > this.maxBytes) return;
    this.map.set(url, media);
    this.bytes += media.bytes.length;
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [k, v] = this.map.entries().next().value as [string, FetchedMedia];
      this.map.delete(k);
      this.bytes -= v.bytes.length;
    }
  }
}

async function fetchUrl(
  field: string,
  url: URL,
  maxBytes: number,
  o: MediaFetchOptions,
): Promise<FetchedMedia> {
  const abort = new AbortController();
  const timer = o.clock.setTimeout(() => abort.abort(), o.timeoutMs);
  try {
    let res: Response;
    try {
      res = await fetch(url, { redirect: 'error', signal: abort.signal });
    } catch {
      throw bad(
        field,
        abort.signal.aborted
          ? `fetch timed out after ${o.timeoutMs} ms`
          : `cannot fetch ${url.origin}`,
      );
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw bad(field, `fetch answered HTTP ${res.status}`);
    }
    let bytes: Buffer | 'over';
    try {
      bytes = await readCapped(res, maxBytes);
    } catch {
      throw bad(
        field,
        abort.signal.aborted ? `fetch timed out after ${o.timeoutMs} ms` : 'fetch cut off',
      );
    }
    if (bytes === 'over') throw bad(field, `over ${maxBytes} bytes`);
    if (bytes.length === 0) throw bad(field, 'fetched an empty body');
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return { bytes, type, cached: false };
  } finally {
    timer.cancel();
  }
}

/** Bytes of one media reference (`field` names it in errors). */
export async function loadMedia(
  field: string,
  ref: string,
  maxBytes: number,
  o: MediaFetchOptions & { cache?: MediaCache | null },
): Promise<FetchedMedia> {
  if (ref.startsWith('data:')) return fromDataUri(field, ref, maxBytes);
  let url: URL;
  try {
    url = new URL(ref);
  } catch {
    throw bad(field, 'expected an http(s) URL or a data: URI');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw bad(field, 'expected an http(s) URL or a data: URI');
  if (!o.allowRemote && !isLoopbackHost(url.hostname)) {
    throw bad(
      field,
      'only loopback URLs are fetched (start the emulator with --allow-remote-media, or send a data: URI)',
    );
  }
  const hit = o.cache?.get(url.href);
  if (hit) return { ...hit, cached: true };
  const media = await fetchUrl(field, url, maxBytes, o);
  o.cache?.set(url.href, media);
  return media;
}
