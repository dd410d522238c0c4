/**
 * The shore photo screen's day timeline: where in a day (0 = its start, 1 = its end) each picture
 * was taken, pictures closer than `mergeWithin` of the day shown as one mark with a count.
 */
export interface TimelineMark {
  at: number;
  ids: string[];
  time: number;
}

export function dayMarks(pictures: readonly { id: string; takenAt: number }[], dayStart: number, dayMs = 86_400_000, mergeWithin = 0.004): TimelineMark[] {
  const inDay = pictures.filter((p) => p.takenAt >= dayStart && p.takenAt < dayStart + dayMs).sort((a, b) => a.takenAt - b.takenAt);
  const marks: TimelineMark[] = [];
  for (const p of inDay) {
    const at = (p.takenAt - dayStart) / dayMs;
    const last = marks.at(-1);
    if (last && at - last.at <= mergeWithin) last.ids.push(p.id);
    else marks.push({ at, ids: [p.id], time: p.takenAt });
  }
  return marks;
}
