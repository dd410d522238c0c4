import type { LinkType } from '@ship-cctv/protocol';
import { exponential, symmetric, type RandomSource } from './random.ts';

export type LinkProfileName = 'VSAT' | 'FBB' | 'FOURTHG' | 'IRIDIUM' | 'LEO' | 'OFFLINE';

/** Direction across a ship's link: "up" is ship → shore (the scarce one), "down" is shore → ship. */
export type LinkDirection = 'up' | 'down';

/** Random outages: the link drops on average every `meanEveryMs` for about `meanForMs`. */
export interface RandomOutages {
  readonly meanEveryMs: number;
  readonly meanForMs: number;
}

/** A fixed outage, relative to the start of a schedule phase. */
export interface OutageWindow {
  readonly startMs: number;
  readonly durationMs: number;
}

export type OutagePattern = RandomOutages | { readonly windows: readonly OutageWindow[] };

export interface LinkProfile {
  readonly name: LinkProfileName;
  /** What the agent reports to operators (spec §4 link values; LEO is reported as AUTO). */
  readonly linkType: LinkType;
  /** Half the round trip. */
  readonly oneWayDelayMs: number;
  /** Ship → shore, kbit/s (1 kbit = 1000 bits). */
  readonly upKbps: number;
  /** Shore → ship, kbit/s. */
  readonly downKbps: number;
  /** Delay varies uniformly by ± this much per chunk (never reordering a connection's bytes). */
  readonly jitterMs: number;
  /** Baseline signal quality 0–100 the agent reports; -1 means "no signal" (spec: preSignal default). */
  readonly quality: number;
  /** Reported quality varies uniformly by ± this much. */
  readonly qualityNoise: number;
  /** Outages within a phase on this link (Iridium: tens of seconds, now and then). */
  readonly outages?: OutagePattern;
  /**
   * Segments lost ship → shore, in percent (what is left after the modem's own error correction).
   * TCP recovers each loss: the stream stalls about a round trip and the sender's rate halves.
   * Absent: none.
   */
  readonly upLossPercent?: number;
  /** Segments lost shore → ship, in percent. */
  readonly downLossPercent?: number;
}

export const PROFILES = {
  // Geostationary Ku-band VSAT: ~600 ms round trip, asymmetric. Loss 0.5 %: rain fade and
  // pointing from a moving ship leave some packet loss after the modem's coding.
  VSAT: {
    name: 'VSAT',
    linkType: 'VSAT',
    oneWayDelayMs: 300,
    upKbps: 2_000,
    downKbps: 6_000,
    jitterMs: 20,
    quality: 86,
    qualityNoise: 8,
    upLossPercent: 0.5,
    downLossPercent: 0.5,
  },
  // Inmarsat FleetBroadband: geostationary L-band, slower and paid by the megabyte. Loss 1 %:
  // small antennas and blockage by the ship's own structure.
  FBB: {
    name: 'FBB',
    linkType: 'FBB',
    oneWayDelayMs: 350,
    upKbps: 400,
    downKbps: 400,
    jitterMs: 40,
    quality: 68,
    qualityNoise: 10,
    upLossPercent: 1,
    downLossPercent: 1,
  },
  // 4G near port. No loss: the radio's own retransmissions (HARQ, RLC acknowledged mode) hide
  // what the air loses, so TCP sees a little more delay variation, not lost segments.
  FOURTHG: {
    name: 'FOURTHG',
    linkType: 'FOURTHG',
    oneWayDelayMs: 30,
    upKbps: 10_000,
    downKbps: 20_000,
    jitterMs: 10,
    quality: 92,
    qualityNoise: 6,
    upLossPercent: 0,
    downLossPercent: 0,
  },
  // Iridium Certus: low bandwidth, noisy, drops out for tens of seconds now and then. Loss 2 %:
  // the noisiest link, satellites passing over and handing the ship on.
  IRIDIUM: {
    name: 'IRIDIUM',
    linkType: 'IRIDIUM',
    oneWayDelayMs: 350,
    upKbps: 350,
    downKbps: 700,
    jitterMs: 80,
    quality: 50,
    qualityNoise: 15,
    upLossPercent: 2,
    downLossPercent: 2,
    outages: { meanEveryMs: 120_000, meanForMs: 25_000 },
  },
  // Low-earth-orbit constellation: short delay, fast; the spec has no LEO value, so it reports AUTO.
  // Loss 0.1 %: little, around the handovers between satellites; at a 50 ms round trip a loss
  // costs 50 ms and the window grows back within seconds.
  LEO: {
    name: 'LEO',
    linkType: 'AUTO',
    oneWayDelayMs: 25,
    upKbps: 20_000,
    downKbps: 100_000,
    jitterMs: 10,
    quality: 88,
    qualityNoise: 8,
    upLossPercent: 0.1,
    downLossPercent: 0.1,
  },
  OFFLINE: {
    name: 'OFFLINE',
    linkType: 'OFFLINE',
    oneWayDelayMs: 0,
    upKbps: 0,
    downKbps: 0,
    jitterMs: 0,
    quality: -1,
    qualityNoise: 0,
  },
} as const satisfies Record<LinkProfileName, LinkProfile>;

export const PROFILE_NAMES = Object.keys(PROFILES) as LinkProfileName[];

export function profileByName(name: LinkProfileName): LinkProfile {
  return PROFILES[name];
}

/** A profile with some figures changed, e.g. for tests or a ship with a better antenna. */
export function withOverrides(profile: LinkProfile, overrides: Partial<Omit<LinkProfile, 'name'>>): LinkProfile {
  return { ...profile, ...overrides };
}

/** True when nothing crosses the link in either direction. */
export function isOffline(profile: LinkProfile): boolean {
  return profile.name === 'OFFLINE' || (profile.upKbps <= 0 && profile.downKbps <= 0);
}

export function rateKbps(profile: LinkProfile, direction: LinkDirection): number {
  return direction === 'up' ? profile.upKbps : profile.downKbps;
}

/** The share (0–1) of segments lost in `direction`. */
export function lossRate(profile: LinkProfile, direction: LinkDirection): number {
  const percent = direction === 'up' ? profile.upLossPercent : profile.downLossPercent;
  return percent !== undefined && percent > 0 ? Math.min(100, percent) / 100 : 0;
}

export function roundTripMs(profile: LinkProfile): number {
  return profile.oneWayDelayMs * 2;
}

/** How long `bytes` occupy a link of `kbps` (kbit/s = bits per ms). Infinity when the rate is 0. */
export function serialisationMs(bytes: number, kbps: number): number {
  if (kbps <= 0) return Infinity;
  return (bytes * 8) / kbps;
}

/** Bytes a link of `kbps` carries in `ms`. */
export function bytesIn(ms: number, kbps: number): number {
  return Math.max(0, (kbps * ms) / 8);
}

export const MIN_QUEUE_BOUND_BYTES = 64 * 1024;
export const MAX_QUEUE_BOUND_BYTES = 16 * 1024 * 1024;

/**
 * How many bytes may wait to be serialised in one direction before the shaper stops reading from the
 * sender: about one second of the link (a modem's buffer), at least 64 KiB.
 */
export function queueBoundBytes(kbps: number): number {
  return Math.min(MAX_QUEUE_BOUND_BYTES, Math.max(MIN_QUEUE_BOUND_BYTES, Math.ceil(bytesIn(1000, kbps))));
}

/**
 * The size of one unit of serialisation: ~10 ms of link time, at least one TCP segment, at most
 * 64 KiB. Smaller units keep delivery smooth and let two connections interleave on the link.
 */
export function segmentBytes(kbps: number): number {
  return Math.min(64 * 1024, Math.max(1460, Math.floor(bytesIn(10, kbps))));
}

/** One one-way delay with jitter applied, never negative. */
export function sampleDelayMs(profile: LinkProfile, random: RandomSource): number {
  return Math.max(0, profile.oneWayDelayMs + symmetric(random, profile.jitterMs));
}

/** The quality the agent reports now: the baseline plus noise, kept in 0–100; -1 while offline. */
export function sampleQuality(profile: LinkProfile, random: RandomSource): number {
  if (isOffline(profile) || profile.quality < 0) return -1;
  const q = Math.round(profile.quality + symmetric(random, profile.qualityNoise));
  return Math.min(100, Math.max(0, q));
}

/**
 * The outages falling within a phase of `durationMs` on this profile, sorted, overlapping ones
 * merged, each clipped to the phase. Random patterns draw from `random` (seeded for repeatability).
 */
export function outageWindows(
  pattern: OutagePattern | undefined,
  durationMs: number,
  random: RandomSource,
): OutageWindow[] {
  if (!pattern) return [];
  const clip = (w: OutageWindow): OutageWindow | undefined => {
    const start = Math.max(0, w.startMs);
    const end = Math.min(durationMs, w.startMs + w.durationMs);
    return end > start ? { startMs: start, durationMs: end - start } : undefined;
  };
  if ('windows' in pattern) {
    const sorted = [...pattern.windows].sort((a, b) => a.startMs - b.startMs);
    const merged: OutageWindow[] = [];
    for (const w of sorted) {
      const c = clip(w);
      if (!c) continue;
      const last = merged.at(-1);
      const lastEnd = last ? last.startMs + last.durationMs : -1;
      if (last && c.startMs <= lastEnd) {
        merged[merged.length - 1] = { startMs: last.startMs, durationMs: Math.max(lastEnd, c.startMs + c.durationMs) - last.startMs };
      } else {
        merged.push(c);
      }
    }
    return merged;
  }
  const out: OutageWindow[] = [];
  let t = 0;
  for (;;) {
    t += exponential(random, pattern.meanEveryMs);
    if (t >= durationMs) break;
    // Outage lengths vary ±50 % around the mean: "tens of seconds", never zero.
    const length = pattern.meanForMs * (0.5 + random());
    const c = clip({ startMs: Math.round(t), durationMs: Math.round(length) });
    if (c) out.push(c);
    t += length;
  }
  return out;
}
