/**
 * The fuzzer's deterministic randomness: one generator per case, seeded from (seed, index), so a
 * case is rebuilt exactly from its two numbers.
 */

/**
 * sfc32, seeded through splitmix32: fast, and good enough to pick mutations.
 *
 * @example
 * const rng = new Rng(seed, index); rng.pick(['a', 'b']); // the same pick for the same (seed, index)
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, index: number) {
    let s = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(index | 0, 0x85ebca6b) ^ Math.floor(index / 2 ** 32)) >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return n <= 0 ? 0 : this.u32() % n;
  }

  chance(p: number): boolean {
    return this.u32() / 2 ** 32 < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Picks by weight: `[[weight, value], ...]`. */
  weighted<T>(items: ReadonlyArray<readonly [number, T]>): T {
    const total = items.reduce((sum, [w]) => sum + w, 0);
    let r = this.int(total);
    for (const [w, v] of items) {
      if (r < w) return v;
      r -= w;
    }
    return (items[items.length - 1] as readonly [number, T])[1];
  }
}
