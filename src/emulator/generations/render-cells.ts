/**
 * Render cells (the boxes' "GPU cells", spec 7 "Speak"): each live box runs at most
 * `renderCells` speak renders at once. Renders run in the control plane's process on the
 * chosen box's cell (docs/generations.md: the edge boundary stays untouched), so this is
 * pure accounting over the fleet: no live box is 503 `no_box_available`; every cell busy
 * is 429 `at_capacity` with `Retry-After`.
 */
import type { Fleet } from '../fleet/fleet.js';
import { ApiError } from '../../server/api-error.js';

export interface Cell {
  boxId: string;
  release(): void;
}

export class RenderCells {
  private readonly busy = new Map<string, number>();

  constructor(
    private readonly fleet: Fleet,
    private readonly perBox: number,
    private readonly retryAfterS: number,
  ) {}

  /** Ids of the live boxes (operator view). */
  boxIds(): string[] {
    return this.fleet.liveBoxes().map((b) => b.id);
  }

  inUse(boxId: string): number {
    return this.busy.get(boxId) ?? 0;
  }

  /** Take a cell on the least busy live box (ties: registration order). */
  acquire(): Cell {
    const live = this.fleet.liveBoxes();
    if (live.length === 0) {
      throw new ApiError(503, 'no_box_available', {
        message: 'no healthy box is registered',
        retryable: true,
      });
    }
    let best: string | null = null;
    for (const b of live) {
      const n = this.inUse(b.id);
      if (n < this.perBox && (best === null || n < this.inUse(best))) best = b.id;
    }
    if (best === null) {
      throw new ApiError(429, 'at_capacity', {
        message: `all ${live.length * this.perBox} render cells are busy`,
        retryable: true,
        headers: { 'Retry-After': String(this.retryAfterS) },
      });
    }
    const boxId = best;
    this.busy.set(boxId, this.inUse(boxId) + 1);
    let released = false;
    return {
      boxId,
      release: () => {
        if (released) return;
        released = true;
        const n = this.inUse(boxId) - 1;
        if (n <= 0) this.busy.delete(boxId);
        else this.busy.set(boxId, n);
      },
    };
  }
}
