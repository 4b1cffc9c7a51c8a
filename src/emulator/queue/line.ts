/**
 * The waiting line in admission order, with positions in O(log n).
 *
 * A queue status read must stay fast with thousands of waiters (issue 4), so a ticket's
 * position is not found by scanning: every admitted ticket owns a slot (its sequence
 * number) and a Fenwick tree counts the slots that are "in line" (waiting). The position of
 * a ticket is the prefix count up to its slot. Departures leave holes; when the slots run
 * out the live tickets are renumbered in order into a fresh array (amortized O(1)).
 */
export interface Seated {
  /** Slot in the line; assigned by `Line.admit` and renumbered on compaction. */
  seq: number;
}

export class Line<T extends Seated> {
  private slots: (T | undefined)[] = [];
  private counted = new Uint8Array(0);
  private tree = new Int32Array(0);
  private cap = 0;
  private next = 1;
  /** First slot that may hold a live ticket (holes before it are skipped). */
  private head = 1;
  private live = 0;

  constructor(initialCapacity = 1024) {
    this.resize(initialCapacity, []);
  }

  get size(): number {
    return this.live;
  }

  /** Join the back of the line, counted (waiting). */
  admit(item: T): void {
    if (this.next > this.cap) this.compact();
    item.seq = this.next++;
    this.slots[item.seq] = item;
    this.live++;
    this.setCounted(item, true);
  }

  remove(item: T): void {
    if (this.slots[item.seq] !== item) return;
    this.setCounted(item, false);
    this.slots[item.seq] = undefined;
    this.live--;
    while (this.head < this.next && this.slots[this.head] === undefined) this.head++;
  }

  /** Counted items make up positions: waiting tickets count, claimable ones hold a seat and do not. */
  setCounted(item: T, on: boolean): void {
    const i = item.seq;
    if (this.slots[i] !== item || (this.counted[i] === 1) === on) return;
    this.counted[i] = on ? 1 : 0;
    const delta = on ? 1 : -1;
    for (let j = i; j <= this.cap; j += j & -j) this.tree[j]! += delta;
  }

  /** Counted items at or before this one (1-based position of a counted item). */
  rank(item: T): number {
    let sum = 0;
    for (let j = item.seq; j > 0; j -= j & -j) sum += this.tree[j]!;
    return sum;
  }

  /** Number of counted items. */
  get countedSize(): number {
    return this.next > 1 ? this.prefix(this.next - 1) : 0;
  }

  /** Live items front to back. */
  *inOrder(): Generator<T> {
    for (let i = this.head; i < this.next; i++) {
      const it = this.slots[i];
      if (it) yield it;
    }
  }

  private prefix(i: number): number {
    let sum = 0;
    for (let j = i; j > 0; j -= j & -j) sum += this.tree[j]!;
    return sum;
  }

  private compact(): void {
    const items = [...this.inOrder()];
    const counted = items.map((it) => this.counted[it.seq] === 1);
    this.resize(Math.max(1024, items.length * 2), items, counted);
  }

  private resize(cap: number, items: T[], counted: boolean[] = []): void {
    this.cap = cap;
    this.slots = new Array(cap + 1);
    this.counted = new Uint8Array(cap + 1);
    this.tree = new Int32Array(cap + 1);
    items.forEach((it, k) => {
      it.seq = k + 1;
      this.slots[it.seq] = it;
      if (counted[k]) {
        this.counted[it.seq] = 1;
        this.tree[it.seq] = 1;
      }
    });
    // Linear Fenwick build: push each node's sum to its parent.
    for (let i = 1; i <= cap; i++) {
      const parent = i + (i & -i);
      if (parent <= cap) this.tree[parent]! += this.tree[i]!;
    }
    this.next = items.length + 1;
    this.head = 1;
    this.live = items.length;
  }
}
