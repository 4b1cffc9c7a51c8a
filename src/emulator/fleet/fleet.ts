/**
 * The control plane's view of its boxes and their seats (issue 4 deliverable 1). Boxes
 * register over the internal box API (box-api.ts); each seat is either free, held by a
 * session, or reserved for a claimable queue ticket. A freed seat is offered to the queue
 * first (spec 3: "a seat frees -> claimable, seat reserved for this ticket").
 */
import { createHash } from 'node:crypto';
import type { EmulatorContext } from '../context.js';
import { getSetting, setSetting, type Db } from '../db/database.js';
import type { TicketNeeds } from '../queue/queue.js';
import { sameSecret } from '../../server/safe-equal.js';

export interface BoxRecord {
  id: string;
  /** Base URL of the box (the mint's `connect_url`). */
  baseUrl: string;
  host: string;
  seats: number;
  protocols: number[];
  customAvatars: boolean;
  verified: boolean;
  maxCapSeconds: number | null;
  live: boolean;
  /** Seats held by sessions (session ids). */
  held: Set<string>;
  /** Seats reserved for claimable tickets. */
  reserved: number;
  registeredAt: number;
  /** What the control plane presents to the box's `/_box/...` routes (session log, end). */
  callbackSecret: string | null;
}

export interface BoxRegistration {
  base_url: string;
  seats: number;
  protocols: number[];
  custom_avatars: boolean;
  verified: boolean;
  max_cap_seconds?: number | null;
  callback_secret?: string | null;
}

const hash = (s: string) => createHash('sha256').update(s).digest();

export class Fleet {
  private readonly boxes = new Map<string, BoxRecord>();
  private readonly credentials = new Map<string, Buffer>();

  /**
   * Issue a box credential (in-process boxes and `POST /_emulator/boxes` for external ones).
   * `db`: keep it in the store too, so a box in another process registers again after the
   * control plane restarts on the same data dir (docs/edge.md).
   */
  addCredential(boxId: string, secret: string, db?: Db): void {
    this.credentials.set(boxId, hash(secret));
    if (db) rememberCredential(db, boxId, hash(secret));
  }

  /** Credentials kept in the store by an earlier start. */
  loadCredentials(db: Db): void {
    for (const [id, h] of Object.entries(storedCredentials(db)))
      if (!this.credentials.has(id)) this.credentials.set(id, Buffer.from(h, 'hex'));
  }

  checkCredential(boxId: string, secret: string | null): boolean {
    const want = this.credentials.get(boxId);
    return !!want && secret !== null && sameSecret(want, hash(secret));
  }

  register(id: string, reg: BoxRegistration, now: number): BoxRecord {
    const url = new URL(reg.base_url);
    const prev = this.boxes.get(id);
    const box: BoxRecord = {
      id,
      baseUrl: reg.base_url.replace(/\/+$/, ''),
      host: url.host,
      seats: reg.seats,
      protocols: [...reg.protocols],
      customAvatars: reg.custom_avatars,
      verified: reg.verified,
      maxCapSeconds: reg.max_cap_seconds ?? null,
      live: true,
      held: prev?.held ?? new Set(),
      reserved: prev?.reserved ?? 0,
      registeredAt: now,
      callbackSecret: reg.callback_secret ?? null,
    };
    this.boxes.set(id, box);
    return box;
  }

  get(id: string): BoxRecord | undefined {
    return this.boxes.get(id);
  }

  list(): BoxRecord[] {
    return [...this.boxes.values()];
  }

  liveBoxes(): BoxRecord[] {
    return this.list().filter((b) => b.live);
  }

  totalSeats(): number {
    return this.liveBoxes().reduce((n, b) => n + b.seats, 0);
  }

  free(box: BoxRecord): number {
    return box.live ? Math.max(0, box.seats - box.held.size - box.reserved) : 0;
  }

  /** The highest offered protocol this box speaks, or null when it speaks none of them. */
  static protocolFor(box: BoxRecord, needs: TicketNeeds): number | null {
    let best: number | null = null;
    for (const p of needs.protocols)
      if (box.protocols.includes(p) && (best === null || p > best)) best = p;
    return best;
  }

  /** Does this box meet a mint's needs? A protocol offered, and custom avatars need a supporting, verified box. */
  static fits(box: BoxRecord, needs: TicketNeeds): boolean {
    return (
      box.live &&
      Fleet.protocolFor(box, needs) !== null &&
      (!needs.custom || (box.customAvatars && box.verified))
    );
  }

  /**
   * A box with a free seat that fits: the highest offered protocol among free seats first,
   * then the least loaded; null when every fitting seat is taken.
   */
  findFreeSeat(needs: TicketNeeds): BoxRecord | null {
    let best: BoxRecord | null = null;
    let bestProtocol = -Infinity;
    for (const b of this.boxes.values()) {
      if (!Fleet.fits(b, needs) || this.free(b) === 0) continue;
      const p = Fleet.protocolFor(b, needs)!;
      if (!best || p > bestProtocol || (p === bestProtocol && this.free(b) > this.free(best))) {
        best = b;
        bestProtocol = p;
      }
    }
    return best;
  }

  hold(box: BoxRecord, sessionId: string): void {
    box.held.add(sessionId);
  }

  /** Returns true when the session held a seat there (so the caller offers it on). */
  releaseHeld(boxId: string, sessionId: string): boolean {
    const box = this.boxes.get(boxId);
    return !!box && box.held.delete(sessionId);
  }
}

/** The emulator's fleet (the boxes that registered and their seats; built once by src/emulator/services.ts). */
export function fleetOf(ctx: EmulatorContext): Fleet {
  return ctx.services.fleet;
}

/** Settings key of the external boxes' credentials: `{ box_id: sha256(secret) hex }`, newest last. */
const CREDENTIALS = 'box_credentials';
/** How many external box credentials the store keeps (each `avatar edge start` asks one). */
const KEPT_CREDENTIALS = 256;

function storedCredentials(db: Db): Record<string, string> {
  try {
    const v = JSON.parse(getSetting(db, CREDENTIALS) ?? '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function rememberCredential(db: Db, boxId: string, digest: Buffer): void {
  const entries = Object.entries(storedCredentials(db)).filter(([id]) => id !== boxId);
  entries.push([boxId, digest.toString('hex')]);
  setSetting(db, CREDENTIALS, JSON.stringify(Object.fromEntries(entries.slice(-KEPT_CREDENTIALS))));
}
