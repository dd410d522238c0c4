/** A source of uniform numbers in [0, 1), like `Math.random`. */
export type RandomSource = () => number;

/**
 * A small seeded generator (mulberry32). Link noise and outages draw from it so that a demo ship and
 * a test see the same sequence every run for the same seed.
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An exponentially distributed draw with the given mean (memoryless waits between outages). */
export function exponential(random: RandomSource, mean: number): number {
  // 1 - u is in (0, 1], so the logarithm is finite.
  return -Math.log(1 - random()) * mean;
}

/** A uniform draw in [-spread, +spread]. */
export function symmetric(random: RandomSource, spread: number): number {
  return (random() * 2 - 1) * spread;
}
