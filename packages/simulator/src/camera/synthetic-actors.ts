import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chain, filter } from '@ship-cctv/agent';

/**
 * Things that happen in the synthetic camera's picture, so that the ship's event analysis has
 * something to find in the demo: now and then a person walks across the deck, or a sailing boat
 * passes. Like the rest of the picture they are a function of absolute time: time is cut into
 * ACTOR_SLOT_S slots and each slot has one actor — a walker (every even slot, and half the odd
 * ones: someone walks by at least every two slots) or a boat — that enters at a moment of the
 * slot picked by a hash of the slot's number and the camera's seed. So any
 * moment is drawn again exactly (playback shows what live showed) and the tests and the benchmark
 * know where everybody was (`actorAt`).
 *
 * The walker is a photograph: the standing person of `@vladmandic/human`'s assets/samples.jpg
 * (the package whose detector the agent runs; a drawn figure is not recognised as a person by it),
 * its light background keyed out. The boat is drawn (hull, mast, two sails) once per stream.
 */
export const ACTOR_SLOT_S = 24;
export const WALK_S = 12;
export const SAIL_S = 16;
/** Actors enter within the first this many seconds of their slot (and are gone before it ends). */
const ENTRY_SPREAD_S = 8;
/** Every even slot has a walker; an odd one has a walker when its hash is below this, else a boat. */
const WALKER_SHARE_ODD = 0.5;

/** The walker's picture in samples.jpg (pixels): a standing person on a light ground. */
const WALKER_CROP = { x: 3, y: 3, w: 152, h: 152 };
/** The walker's height and where the top of the picture is, in the scene's heights. */
const WALKER_H = 0.42;
const WALKER_TOP = 0.4;
/** The boat's height and top (it sails across the upper part, clear of the walkers). */
const BOAT_H = 0.34;
const BOAT_TOP = 0.08;

export interface SyntheticActors {
  /** Makes each camera's slots its own (a hash of its name, see actorSeed). */
  seed: number;
  /** samples.jpg of @vladmandic/human; undefined: no walkers are drawn (boats still are). */
  walkerImage: string | undefined;
}

/** A seed from a camera's name (small: it enters integer expressions that stay exact in doubles). */
export function actorSeed(name: string): number {
  let h = 7;
  for (const ch of name) h = (h * 31 + (ch.codePointAt(0) ?? 0)) % 9973;
  return h;
}

/** The photograph with the walker, from the npm package; undefined when it is not installed. */
export function walkerImagePath(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const path = join(dirname(require.resolve('@vladmandic/human')), '..', 'assets', 'samples.jpg');
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Two hashes of a slot in 0..1 (integer arithmetic exact in doubles, the same in ffmpeg's expressions). */
const H1 = { mul: 7919, seedMul: 104_729, mod: 10_007 };
const H2 = { mul: 4513, seedMul: 3571, mod: 9973 };
const hashOf = (h: typeof H1, slot: number, seed: number) => ((slot * h.mul + seed * h.seedMul) % h.mod) / h.mod;
const hashExpr = (h: typeof H1, slot: string, seed: number) => `mod(${slot}*${h.mul}+${seed * h.seedMul},${h.mod})/${h.mod}`;

export interface ActorInSlot {
  kind: 'walker' | 'boat';
  /** When it enters and leaves (epoch ms). */
  from: number;
  to: number;
  /** Walkers: from the left (true) or the right. Boats always sail right to left. */
  fromLeft: boolean;
}

/** The actor of the slot that holds `at` (epoch ms). */
export function actorOfSlot(at: number, seed: number): ActorInSlot {
  const slot = Math.floor(at / 1000 / ACTOR_SLOT_S);
  const h1 = hashOf(H1, slot, seed);
  const h2 = hashOf(H2, slot, seed);
  const kind = slot % 2 === 0 || h1 < WALKER_SHARE_ODD ? 'walker' : 'boat';
  const from = (slot * ACTOR_SLOT_S + h2 * ENTRY_SPREAD_S) * 1000;
  return { kind, from, to: from + (kind === 'walker' ? WALK_S : SAIL_S) * 1000, fromLeft: h2 < 0.5 };
}

/**
 * Who is in the picture at `at` and where (fractions of the picture; the box of the sprite, of
 * which the person or boat fills most of the height), or undefined.
 */
export function actorAt(at: number, seed: number, aspect = 16 / 9): { kind: ActorInSlot['kind']; box: { x: number; y: number; w: number; h: number } } | undefined {
  const a = actorOfSlot(at, seed);
  if (at < a.from || at > a.to) return undefined;
  const p = (at - a.from) / (a.to - a.from);
  if (a.kind === 'walker') {
    const w = WALKER_H / aspect;
    const x = a.fromLeft ? -w + p * (1 + w) : 1 - p * (1 + w);
    return { kind: 'walker', box: { x, y: WALKER_TOP, w, h: WALKER_H } };
  }
  const w = (BOAT_H * 1.4) / aspect;
  return { kind: 'boat', box: { x: 1 - p * (1 + w), y: BOAT_TOP, w, h: BOAT_H } };
}

/** Progress 0..1 of the slot's actor at frame time t (seconds), as an expression; the slot is n, u the time in it. */
function progressExpr(seed: number, durationS: number): string {
  const n = `floor(t/${ACTOR_SLOT_S})`;
  const from = `(${hashExpr(H2, n, seed)})*${ENTRY_SPREAD_S}`;
  return `((t-${n}*${ACTOR_SLOT_S}-${from})/${durationS})`;
}

/**
 * Filter chains that draw the actors onto `[input]` (a scene H high) and give `[output]`. The
 * sprites are made once per stream (a single frame each, repeated by overlay).
 */
export function actorChains(actors: SyntheticActors, H: number, input: string, output: string): string[] {
  const { seed } = actors;
  const n = `floor(t/${ACTOR_SLOT_S})`;
  const isWalker = `if(eq(mod(${n},2),0),1,lt(${hashExpr(H1, n, seed)},${WALKER_SHARE_ODD}))`;
  const chains: string[] = [];
  const walkP = progressExpr(seed, WALK_S);
  const sailP = progressExpr(seed, SAIL_S);
  const bh = Math.round((H * BOAT_H) / 2) * 2;
  const bw = Math.round((bh * 1.4) / 2) * 2;
  chains.push(chain([], [filter('color', { c: 'black@0', s: `${bw}x${bh}`, r: 1 }), filter('format', { pix_fmts: 'yuva420p' }), filter('trim', { end_frame: 1 }), boatGeq()], ['boat']));
  let last = input;
  if (actors.walkerImage) {
    const wh = Math.round((H * WALKER_H) / 2) * 2;
    chains.push(
      chain(
        [],
        [
          filter('movie', { filename: actors.walkerImage }),
          filter('crop', { w: WALKER_CROP.w, h: WALKER_CROP.h, x: WALKER_CROP.x, y: WALKER_CROP.y }),
          filter('scale', { w: wh, h: wh }),
          filter('format', { pix_fmts: 'rgba' }),
          // The light ground around the person becomes transparent.
          filter('colorkey', { color: '0xf4f4f4', similarity: 0.12, blend: 0.08 }),
          filter('format', { pix_fmts: 'yuva420p' }),
          filter('trim', { end_frame: 1 }),
        ],
        ['walker'],
      ),
    );
    const fromLeft = `lt(${hashExpr(H2, n, seed)},0.5)`;
    chains.push(
      chain(
        [last, 'walker'],
        [
          filter('overlay', {
            x: offstage(`${isWalker}*between(${walkP},0,1)`, `if(${fromLeft},-overlay_w+${walkP}*(main_w+overlay_w),main_w-${walkP}*(main_w+overlay_w))`),
            y: `main_h*${WALKER_TOP}`,
            eof_action: 'repeat',
          }),
        ],
        ['walked'],
      ),
    );
    last = 'walked';
  }
  chains.push(
    chain(
      [last, 'boat'],
      [filter('overlay', { x: offstage(`(1-${isWalker})*between(${sailP},0,1)`, `main_w-${sailP}*(main_w+overlay_w)`), y: `main_h*${BOAT_TOP}`, eof_action: 'repeat' })],
      [output],
    ),
  );
  return chains;
}

/**
 * An overlay's x that puts the sprite at `x` while `on`, else far outside the picture (nothing is
 * drawn). Not overlay's `enable`: its timeline sees a time that is not the frame's epoch time.
 */
const offstage = (on: string, x: string) => `if(${on},${x},-10*main_w)`;

/** A sailing boat on a transparent sprite: dark hull, white mainsail and jib, a mast. */
function boatGeq(): string {
  // In the sprite's own units (0..1 across, 0..1 down).
  // geq's W and H are each plane's own (the chroma planes are half the size).
  const X = '(X/W)';
  const Y = '(Y/H)';
  const hull = `between(${Y},0.78,0.95)*between(${X},0.08+(${Y}-0.78)*0.9,0.92-(${Y}-0.78)*0.9)`;
  const main = `between(${Y},0.05,0.76)*between(${X},0.52,0.54+(${Y}-0.05)*0.5)`;
  const jib = `between(${Y},0.18,0.76)*between(${X},0.47-(${Y}-0.18)*0.4,0.49)`;
  const mast = `between(${Y},0.02,0.78)*between(${X},0.495,0.52)`;
  const sail = `gt(${main}+${jib},0)`;
  const body = `gt(${hull}+${sail}+${mast},0)`;
  // Y'CbCr of a dark brown hull, white sails, a light mast.
  return filter('geq', {
    lum: `if(${hull},50,if(${sail},232,if(${mast},200,0)))`,
    cb: `if(${hull},124,128)`,
    cr: `if(${hull},140,128)`,
    a: `255*${body}`,
  });
}
