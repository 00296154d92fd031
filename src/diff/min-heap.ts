/** A binary min-heap: push and pop in O(log n), for ready sets that must stay ordered. */
export class MinHeap<T> {
  readonly #items: T[] = [];
  readonly #less: (a: T, b: T) => boolean;

  /** `compare(a, b) < 0` puts `a` first. */
  constructor(compare: (a: T, b: T) => number) {
    this.#less = (a, b) => compare(a, b) < 0;
  }

  /** How many items the heap holds. */
  get size(): number {
    return this.#items.length;
  }

  /** Adds an item. */
  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(items[i] as T, items[parent] as T)) break;
      this.#swap(i, parent);
      i = parent;
    }
  }

  /** Removes and returns the first item, or `undefined` when empty. */
  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < items.length && this.#less(items[left] as T, items[least] as T)) least = left;
      if (right < items.length && this.#less(items[right] as T, items[least] as T)) least = right;
      if (least === i) break;
      this.#swap(i, least);
      i = least;
    }
    return top;
  }

  #swap(a: number, b: number): void {
    const items = this.#items;
    const tmp = items[a] as T;
    items[a] = items[b] as T;
    items[b] = tmp;
  }
}
