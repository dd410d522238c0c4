import { EventEmitter } from 'node:events';
import type { LinkType } from '@ship-cctv/protocol';
import { systemClock, type Clock } from './clock.ts';
import { PROFILES, outageWindows, sampleQuality, type LinkProfile, type OutagePattern, type OutageWindow } from './profiles.ts';
import { seededRandom, type RandomSource } from './random.ts';
import type { LinkControl } from './shaper.ts';

export interface LinkPhase {
  readonly profile: LinkProfile;
  readonly durationMs: number;
  /** What the phase stands for in a ship's day: "port", "sea", "outage"… */
  readonly label?: string;
  /** Outages in this phase; default the profile's own pattern. */
  readonly outages?: OutagePattern;
}

export interface LinkScheduleSpec {
  readonly phases: readonly LinkPhase[];
  /** Seed of the noise and random outages; same seed, same link history. */
  readonly seed?: number;
  /** Where in the cycle to begin, so a fleet's ships do not all change at once. */
  readonly startOffsetMs?: number;
}

export interface LinkScheduleOptions extends LinkScheduleSpec {
  clock?: Clock;
  /** The shaper (or anything) to drive. */
  target?: LinkControl;
  /** Run the phases once and stay in the last one, instead of looping. Default false. */
  once?: boolean;
}

export interface LinkState {
  /** The profile in effect: the phase's, or OFFLINE during an outage. */
  readonly profile: LinkProfile;
  readonly phaseProfile: LinkProfile;
  readonly phaseIndex: number;
  readonly label: string | undefined;
  readonly inOutage: boolean;
  /** The link value the agent reports to shore. */
  readonly linkType: LinkType;
  /** Clock time at which this state began. */
  readonly since: number;
  /** Completed passes through the phase list. */
  readonly cycle: number;
}

export type LinkScheduleEvents = {
  change: [profile: LinkProfile, state: LinkState];
};

export function cycleLengthMs(phases: readonly LinkPhase[]): number {
  return phases.reduce((sum, p) => sum + p.durationMs, 0);
}

/** The phase and the time into it at `offsetMs` into the (looping) cycle. */
export function phaseAt(phases: readonly LinkPhase[], offsetMs: number): { index: number; elapsedMs: number } {
  const total = cycleLengthMs(phases);
  let t = total > 0 ? ((offsetMs % total) + total) % total : 0;
  for (let i = 0; i < phases.length; i++) {
    const d = phases[i]?.durationMs ?? 0;
    if (t < d) return { index: i, elapsedMs: t };
    t -= d;
  }
  return { index: 0, elapsedMs: 0 };
}

/**
 * Drives a link through a loop of phases (port → sea → outage → back), with random outages inside
 * phases whose profile has them. Emits 'change' whenever the effective profile changes.
 */
export class LinkSchedule extends EventEmitter<LinkScheduleEvents> {
  readonly #phases: readonly LinkPhase[];
  readonly #clock: Clock;
  readonly #target: LinkControl | undefined;
  readonly #once: boolean;
  readonly #startOffsetMs: number;
  // Separate streams so asking for quality does not change when outages happen.
  readonly #outageRandom: RandomSource;
  readonly #noiseRandom: RandomSource;
  #timer: unknown;
  #running = false;
  #phaseIndex = 0;
  #phaseStart = 0;
  #cycle = 0;
  #windows: OutageWindow[] = [];
  #state: LinkState | undefined;

  constructor(options: LinkScheduleOptions) {
    super();
    if (options.phases.length === 0) throw new Error('LinkSchedule needs at least one phase');
    if (options.phases.some((p) => !(p.durationMs > 0))) throw new Error('LinkSchedule phases need a positive duration');
    this.#phases = options.phases;
    this.#clock = options.clock ?? systemClock;
    this.#target = options.target;
    this.#once = options.once ?? false;
    this.#startOffsetMs = options.startOffsetMs ?? 0;
    const seed = options.seed ?? 1;
    this.#outageRandom = seededRandom(seed);
    this.#noiseRandom = seededRandom(seed ^ 0x9e3779b9);
  }

  get running(): boolean {
    return this.#running;
  }

  /** The current state; before `start`, the state the schedule would start in. */
  get state(): LinkState {
    return this.#state ?? this.#describe(phaseAt(this.#phases, this.#startOffsetMs).index, false, this.#clock.now());
  }

  /** Outage windows of the current phase, relative to its start. */
  get outages(): readonly OutageWindow[] {
    return this.#windows;
  }

  /** A signal quality reading for the agent to report now (baseline ± noise; -1 while down). */
  quality(): number {
    return sampleQuality(this.state.profile, this.#noiseRandom);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    const { index, elapsedMs } = phaseAt(this.#phases, this.#startOffsetMs);
    this.#enter(index, this.#clock.now() - elapsedMs);
    this.#tick();
  }

  stop(): void {
    this.#running = false;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #phase(index: number): LinkPhase {
    const phase = this.#phases[index];
    if (!phase) throw new Error(`no phase ${index}`);
    return phase;
  }

  #enter(index: number, startedAt: number): void {
    const phase = this.#phase(index);
    this.#phaseIndex = index;
    this.#phaseStart = startedAt;
    this.#windows = outageWindows(phase.outages ?? phase.profile.outages, phase.durationMs, this.#outageRandom);
  }

  #tick(): void {
    this.#timer = undefined;
    if (!this.#running) return;
    const now = this.#clock.now();
    // Catch up over phase ends (a late timer, or a clock advanced in big steps).
    for (;;) {
      const phase = this.#phase(this.#phaseIndex);
      const phaseEnd = this.#phaseStart + phase.durationMs;
      if (now < phaseEnd) break;
      const last = this.#phaseIndex === this.#phases.length - 1;
      if (last && this.#once) break;
      if (last) this.#cycle++;
      this.#enter(last ? 0 : this.#phaseIndex + 1, phaseEnd);
    }
    const phase = this.#phase(this.#phaseIndex);
    const t = now - this.#phaseStart;
    const inOutage = this.#windows.some((w) => t >= w.startMs && t < w.startMs + w.durationMs);
    this.#apply(inOutage, now);

    const boundaries = [phase.durationMs];
    for (const w of this.#windows) boundaries.push(w.startMs, w.startMs + w.durationMs);
    const next = Math.min(...boundaries.filter((b) => b > t));
    if (this.#once && this.#phaseIndex === this.#phases.length - 1 && next >= phase.durationMs) return;
    this.#timer = this.#clock.setTimeout(() => this.#tick(), next - t);
  }

  #apply(inOutage: boolean, now: number): void {
    const previous = this.#state;
    const phase = this.#phase(this.#phaseIndex);
    if (previous && previous.phaseIndex === this.#phaseIndex && previous.inOutage === inOutage) {
      // Same phase again (a one-phase loop came round): nothing changed for the link.
      if (previous.cycle !== this.#cycle) this.#state = { ...previous, cycle: this.#cycle };
      return;
    }
    const state = this.#describe(this.#phaseIndex, inOutage, now);
    this.#state = state;
    if (previous?.phaseProfile !== phase.profile) this.#target?.setProfile(phase.profile);
    if (previous?.inOutage !== inOutage) this.#target?.setOutage(inOutage);
    this.emit('change', state.profile, state);
  }

  #describe(index: number, inOutage: boolean, since: number): LinkState {
    const phase = this.#phase(index);
    const profile = inOutage ? PROFILES.OFFLINE : phase.profile;
    return {
      profile,
      phaseProfile: phase.profile,
      phaseIndex: index,
      label: phase.label,
      inOutage,
      linkType: profile.linkType,
      since,
      cycle: this.#cycle,
    };
  }
}

const MIN = 60_000;
const SEC = 1_000;

/**
 * The link history of demo ship `shipIndex`: six kinds of ship in turn (mostly VSAT, VSAT with an
 * FBB fall-back, FBB, Iridium with outages, LEO, in port on 4G), cycles of several minutes, each ship
 * starting at a different point so the fleet does not change all at once.
 */
export function demoScheduleFor(shipIndex: number): LinkScheduleSpec {
  const i = Math.max(0, Math.floor(shipIndex));
  const { VSAT, FBB, FOURTHG, IRIDIUM, LEO, OFFLINE } = PROFILES;
  const kinds: readonly (readonly LinkPhase[])[] = [
    [
      { profile: FOURTHG, durationMs: 2 * MIN, label: 'port' },
      { profile: VSAT, durationMs: 5 * MIN, label: 'sea' },
      { profile: OFFLINE, durationMs: 40 * SEC, label: 'outage' },
      { profile: VSAT, durationMs: 3 * MIN, label: 'sea' },
    ],
    [
      { profile: VSAT, durationMs: 6 * MIN, label: 'sea' },
      { profile: FBB, durationMs: 90 * SEC, label: 'backup' },
      { profile: VSAT, durationMs: 3 * MIN, label: 'sea' },
      { profile: OFFLINE, durationMs: 30 * SEC, label: 'outage' },
    ],
    [
      { profile: FBB, durationMs: 6 * MIN, label: 'sea' },
      { profile: OFFLINE, durationMs: 45 * SEC, label: 'outage' },
      { profile: FBB, durationMs: 3 * MIN, label: 'sea' },
    ],
    [
      { profile: IRIDIUM, durationMs: 8 * MIN, label: 'sea', outages: { meanEveryMs: 90 * SEC, meanForMs: 25 * SEC } },
      { profile: FBB, durationMs: 2 * MIN, label: 'sea' },
    ],
    [
      { profile: LEO, durationMs: 5 * MIN, label: 'sea' },
      { profile: VSAT, durationMs: 90 * SEC, label: 'sea' },
      { profile: OFFLINE, durationMs: 20 * SEC, label: 'outage' },
    ],
    [
      { profile: FOURTHG, durationMs: 7 * MIN, label: 'port' },
      { profile: OFFLINE, durationMs: 20 * SEC, label: 'outage' },
    ],
  ];
  const phases = kinds[i % kinds.length] ?? kinds[0] ?? [];
  return { phases, seed: 1000 + i, startOffsetMs: (i * 47 * SEC) % cycleLengthMs(phases) };
}
