/**
 * A first-come, first-served budget of bytes. A claim waits until every earlier claim is
 * admitted and its bytes fit beside those held; when nothing is held one claim is always
 * admitted, so a single claim larger than the budget still goes, alone.
 */
export class ByteBudget {
  private held = 0;
  private readonly waiting: { size: () => number; admit: (claim: Claim) => void }[] = [];

  /** @param limit the bytes held at once (one larger claim is admitted when nothing is held). */
  constructor(readonly limit: number) {}

  /** Bytes held now. */
  get inUse(): number {
    return this.held;
  }

  /**
   * Waits for its turn and for room, then holds `size` bytes. A function is asked for the size
   * each time the claim is at the head of the queue, so the size can follow what earlier claims
   * learned while this one waited; the claim holds the size of the call that was admitted.
   */
  claim(size: number | (() => number)): Promise<Claim> {
    return new Promise((admit) => {
      this.waiting.push({ size: typeof size === "number" ? () => size : size, admit });
      this.admitWaiting();
    });
  }

  /** Claims `bytes`, runs `use`, and gives them back when it settles. */
  async hold<T>(bytes: number, use: () => Promise<T>): Promise<T> {
    const claim = await this.claim(bytes);
    try {
      return await use();
    } finally {
      claim.close();
    }
  }

  private admitWaiting(): void {
    for (let next = this.waiting[0]; next !== undefined; next = this.waiting[0]) {
      const bytes = next.size();
      if (this.held > 0 && this.held + bytes > this.limit) return;
      this.waiting.shift();
      this.held += bytes;
      next.admit(this.claimOf(bytes));
    }
  }

  private claimOf(bytes: number): Claim {
    let holds = bytes;
    const change = (to: number) => {
      this.held += to - holds;
      holds = to;
      this.admitWaiting();
    };
    return {
      resize: (to) => change(Math.max(0, to)),
      release: (freed) => change(holds - Math.min(holds, Math.max(0, freed))),
      close: () => change(0),
    };
  }
}

/** Bytes an admitted claim holds in a {@link ByteBudget}. */
export interface Claim {
  /** Holds `bytes` from now on, in place of what it held (more may go past the limit: nothing waits for it). */
  resize(bytes: number): void;
  /** Gives back `bytes` of what it holds (at most all of it). */
  release(bytes: number): void;
  /** Gives back everything it holds. Idempotent. */
  close(): void;
}
