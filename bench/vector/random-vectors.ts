/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so benchmarks and tests are repeatable. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` unit vectors of `dimensions` floats, row-major, from a seeded generator. */
export function randomUnitVectors(count: number, dimensions: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const vectors = new Float32Array(count * dimensions);
  for (let row = 0; row < count; row++) {
    const start = row * dimensions;
    let sumOfSquares = 0;
    for (let i = 0; i < dimensions; i++) {
      const value = random() * 2 - 1;
      vectors[start + i] = value;
      sumOfSquares += value * value;
    }
    const scale = 1 / Math.sqrt(sumOfSquares);
    for (let i = 0; i < dimensions; i++) vectors[start + i] *= scale;
  }
  return vectors;
}
