/**
 * A ship's day against a live data budget, simulated fast for the budgets benchmark
 * (budgets.bench.ts): the ship's link as its demo schedule drives it (the real LinkSchedule on a
 * manual clock), a viewing pattern in the ship's local time, bytes per second of each kind of view
 * from the benchmark's measurements, and the server's own budget arithmetic and ship calendar
 * (apps/server/src/budgets) deciding when the 80 % and 100 % notices go and what new views get.
 * Pure apart from the clock it is given.
 */
import { type BudgetPolicy, type BudgetPolicyChoice, type DefinitionLevel, LINK_POLICY_DEFAULTS, type LiveBudgetState, levelFor, policyLinkOf, zoneTime } from '@ship-cctv/protocol';
import { crossings, liveState, useOf, type Usage } from '../../../apps/server/src/modules/budgets/budget-arithmetic.ts';
import { endOfShipDay, shipPeriod } from '../../../apps/server/src/modules/budgets/ship-calendar.ts';
import { LinkSchedule, ManualClock, PROFILES, type LinkProfileName, type LinkScheduleSpec } from '@ship-cctv/simulator';

export const DAY_MS = 24 * 3_600_000;

/** The server flushes link counters into the budget every 5 s; the simulation steps the same. */
export const FLUSH_MS = 5_000;

/** A stretch of the ship's link: `profile` from `from` to `to` (epoch ms); OFFLINE during an outage. */
export interface LinkSegment {
  from: number;
  to: number;
  profile: LinkProfileName;
}

/**
 * The link a demo schedule gives over [from, from + durationMs): the agent's LinkSchedule run on a
 * manual clock (its phases, seeded outages and start offset), cut where the effective profile changes.
 */
export function linkTimeline(spec: LinkScheduleSpec, from: number, durationMs: number): LinkSegment[] {
  const clock = new ManualClock(from);
  const schedule = new LinkSchedule({ ...spec, clock });
  const out: LinkSegment[] = [];
  const push = (at: number, profile: LinkProfileName) => {
    const last = out[out.length - 1];
    if (last && last.profile === profile) return;
    if (last) last.to = at;
    out.push({ from: at, to: from + durationMs, profile });
  };
  schedule.on('change', (profile) => push(clock.now(), profile.name));
  schedule.start();
  push(from, schedule.state.profile.name);
  clock.advance(durationMs);
  schedule.stop();
  const end = from + durationMs;
  const last = out[out.length - 1];
  if (last) last.to = end;
  return out.filter((s) => s.to > s.from);
}

/** A stretch of the day (minutes after the ship's local midnight) in which the operators watch the ship. */
export interface ViewWindow {
  fromMinute: number;
  toMinute: number;
}

/**
 * The viewing pattern of every ship (ship-local time): a watch round of 10 minutes at the top of
 * every hour from 06:00 to 22:00 (17 rounds) and an hour from 09:00 to 10:00 (cargo or port work):
 * each time a grid of all the ship's cameras. 3 h 40 min of watching a day.
 */
export const VIEWING_PATTERN: readonly ViewWindow[] = (() => {
  const windows: ViewWindow[] = [];
  for (let h = 6; h <= 22; h++) {
    if (h === 9) windows.push({ fromMinute: 9 * 60, toMinute: 10 * 60 });
    else windows.push({ fromMinute: h * 60, toMinute: h * 60 + 10 });
  }
  return windows;
})();

/** The smallest square grid (1, 4, 9 or 16 cells) that holds `cameras` cells. */
export function gridFor(cameras: number): number {
  if (!(cameras >= 1) || !Number.isInteger(cameras)) throw new Error(`a grid needs a whole number of cameras, 1 or more (got ${cameras})`);
  for (const g of [1, 4, 9, 16]) if (cameras <= g) return g;
  throw new Error(`${cameras} cameras do not fit a 16-cell grid`);
}

/** What the benchmark measured, that a day is made of. */
export interface MeasuredRates {
  /** Live bytes per second of one camera on a link that carries all it sends (4G), per definition. */
  perCamera: Record<Exclude<DefinitionLevel, 'best' | 'satellite'>, number>;
  /** Live bytes per second the FBB link carried at most for a 16-cell grid (its share of FBB's nominal rate sets every link's). */
  fbbCarried: number;
  /** Bytes on the link per still (picture and protocol). */
  stillBytes: number;
  stillsEverySeconds: number;
}

/** A view's kind: a definition level, or stills (the budget's `stills` policy: pictures only). */
export type ViewKind = Exclude<DefinitionLevel, 'best' | 'satellite'> | 'stills';

/**
 * Bytes per second a view of `cells` cameras of `kind` costs on a link: what the cameras send at that
 * definition (measured on 4G), at most what the link carries — its nominal rate times the share of
 * FBB's nominal rate the 16-cell grid got over the real FBB shaper (loss and protocol included).
 * Stills cost one picture per camera every `stillsEverySeconds`, on any link but an outage.
 */
export function viewBytesPerSecond(rates: MeasuredRates, profile: LinkProfileName, kind: ViewKind, cells: number): number {
  const link = PROFILES[profile];
  if (link.upKbps <= 0) return 0;
  if (kind === 'stills') return Math.min((cells * rates.stillBytes) / rates.stillsEverySeconds, (rates.fbbCarried * link.upKbps) / PROFILES.FBB.upKbps);
  const carried = (rates.fbbCarried * link.upKbps) / PROFILES.FBB.upKbps;
  return Math.min(cells * rates.perCamera[kind], carried);
}

/** What a new grid view of the ship gets: the organisation's default policy for the link, narrowed by the budget's state. */
export function viewKindFor(profile: LinkProfileName, cells: number, budget: LiveBudgetState): ViewKind | 'refused' {
  if (budget === 'stills') return 'stills';
  if (budget === 'block') return 'refused';
  if (budget === 'lowest') return 'lowest';
  const { level } = levelFor(LINK_POLICY_DEFAULTS[policyLinkOf(PROFILES[profile].linkType)], { gridSize: gridFor(cells), fullScreen: false });
  if (level === 'best') throw new Error(`the policy of ${profile} asks for the best definition in a ${gridFor(cells)}-cell grid, which the benchmark does not measure`);
  // The bench ship has no satellite tier: it plays its lowest for it, as the web app does.
  return level === 'satellite' ? 'lowest' : level;
}

export interface ShipDayOptions {
  timeZone: string;
  /** Any instant of the day before: the simulation runs the ship's next local day, midnight to midnight. */
  dayOf: number;
  cameras: number;
  /** The link over (at least) that day. */
  links: readonly LinkSegment[];
  rates: MeasuredRates;
  /** Live megabytes a day (10^6 bytes); null: no cap. */
  capMb: number | null;
  /** The budget's policy (`link`: the default policy of the link the ship is on at each admission); null: no budget (nothing narrows a view). */
  policy: BudgetPolicyChoice | null;
  pattern?: readonly ViewWindow[];
}

export interface BudgetNotice {
  level: 80 | 100;
  at: number;
  usedBytes: number;
}

export interface ShipDay {
  dayStart: number;
  dayEnd: number;
  /** Bytes counted as live (the budget's purpose) and as pictures (stills). */
  liveBytes: number;
  pictureBytes: number;
  /** Notices the operators got, as the server sends them (80 and 100 in one flush: the 100 only). */
  notices: BudgetNotice[];
  /** When new views first got the policy instead of the link's default. */
  policyFrom: number | undefined;
  /** Views started (a new view at each window, and again whenever the link changes under it). */
  views: number;
  /** Of those, how many the budget narrowed (lowest, stills) or refused (block). */
  narrowed: number;
  refused: number;
  /** Minutes of viewing with the link down (no bytes). */
  offlineViewingMinutes: number;
}

const emptyUsage = (): Usage => ({ live: { day: 0, month: 0 }, playback: { day: 0, month: 0 }, pictures: { day: 0, month: 0 }, backfill: { day: 0, month: 0 }, events: { day: 0, month: 0 } });

/**
 * One ship's local day, stepped at the server's flush interval. A view is admitted when its window
 * opens and again when the link under it changes (the cell asks again for the definition the new link
 * wants, and after an outage the stream starts anew): each admission reads the budget as the server
 * would at that moment (`liveState` of the use flushed so far). A running view keeps what it got.
 */
export function simulateShipDay(o: ShipDayOptions): ShipDay {
  const pattern = o.pattern ?? VIEWING_PATTERN;
  const dayStart = endOfShipDay(o.dayOf, o.timeZone);
  const dayEnd = endOfShipDay(dayStart, o.timeZone);
  const period = shipPeriod(dayStart, o.timeZone);
  const caps = { live: o.capMb === null ? {} : { dayMb: o.capMb }, playback: {}, pictures: {} };
  const usage = emptyUsage();
  const sent = new Set<80 | 100>();
  const out: ShipDay = { dayStart, dayEnd, liveBytes: 0, pictureBytes: 0, notices: [], policyFrom: undefined, views: 0, narrowed: 0, refused: 0, offlineViewingMinutes: 0 };
  const windowAt = (t: number): ViewWindow | undefined => {
    // Minutes since the ship's midnight by its wall clock (a day of 23 or 25 hours keeps its pattern).
    const minute = zoneTime(t, o.timeZone).minuteOfDay;
    return pattern.find((w) => minute >= w.fromMinute && minute < w.toMinute);
  };
  let offlineViewingMs = 0;
  let seg = 0;
  let view: { window: ViewWindow; profile: LinkProfileName; kind: ViewKind | 'refused' } | undefined;
  for (let t = dayStart; t < dayEnd; t += FLUSH_MS) {
    while (seg < o.links.length - 1 && (o.links[seg]?.to ?? Infinity) <= t) seg++;
    const segment = o.links[seg];
    if (!segment || segment.from > t) throw new Error(`the link timeline does not cover ${new Date(t).toISOString()}`);
    const profile = segment.profile;
    const window = windowAt(t);
    if (!window) view = undefined;
    else if (!view || view.window !== window || view.profile !== profile) {
      if (profile === 'OFFLINE') view = { window, profile, kind: 'refused' };
      else {
        const budget = o.policy === null ? 'normal' : liveState(policyOn(o.policy, profile), useOf(caps, usage).live, false);
        const kind = viewKindFor(profile, o.cameras, budget);
        out.views++;
        if (budget !== 'normal') {
          out.policyFrom ??= t;
          if (kind === 'refused') out.refused++;
          else out.narrowed++;
        }
        view = { window, profile, kind };
      }
    }
    const stepMs = Math.min(FLUSH_MS, dayEnd - t);
    if (view && profile === 'OFFLINE') offlineViewingMs += stepMs;
    if (view && view.kind !== 'refused') {
      const bytes = Math.round((viewBytesPerSecond(o.rates, profile, view.kind, o.cameras) * stepMs) / 1000);
      const purpose = view.kind === 'stills' ? 'pictures' : 'live';
      usage[purpose].day += bytes;
      usage[purpose].month += bytes;
      if (purpose === 'live') out.liveBytes += bytes;
      else out.pictureBytes += bytes;
    }
    // The flush: notices once per day, as BudgetService.notify sends them (none without a policy).
    if (o.policy === null) continue;
    const fresh = crossings(useOf(caps, usage)).filter((c) => c.purpose === 'live' && c.period === 'day' && !sent.has(c.level));
    for (const c of fresh) sent.add(c.level);
    for (const c of fresh) {
      if (c.level === 80 && fresh.some((f) => f.level === 100)) continue;
      out.notices.push({ level: c.level, at: t + stepMs, usedBytes: c.usedBytes });
    }
  }
  out.offlineViewingMinutes = offlineViewingMs / 60_000;
  if (shipPeriod(dayEnd - 1, o.timeZone).day !== period.day) throw new Error('the simulated day crossed two ship days');
  return out;
}

/** The policy a budget applies on a link: its own, or (`link`) the link type's default, as BudgetService does. */
export function policyOn(policy: BudgetPolicyChoice, profile: LinkProfileName): BudgetPolicy {
  return policy === 'link' ? LINK_POLICY_DEFAULTS[policyLinkOf(PROFILES[profile].linkType)].budgetPolicy : policy;
}

/** "HH:MM" of an instant on the ship's clock. */
export function shipClock(at: number, timeZone: string): string {
  const t = zoneTime(at, timeZone);
  return `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
}
