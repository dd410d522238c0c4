import { describe, expect, it } from 'vitest';
import { dayMarks } from './day-timeline.ts';
import { transferView } from './hooks/usePictureEvents.ts';

const DAY = 86_400_000;
const start = Date.UTC(2026, 10, 25);

describe('dayMarks', () => {
  it('places each picture of the day by its time, merges close ones and leaves other days out', () => {
    const marks = dayMarks(
      [
        { id: 'noon', takenAt: start + DAY / 2 },
        { id: 'noon-and-a-minute', takenAt: start + DAY / 2 + 60_000 },
        { id: 'six', takenAt: start + DAY / 4 },
        { id: 'yesterday', takenAt: start - 1 },
        { id: 'tomorrow', takenAt: start + DAY },
      ],
      start,
    );
    expect(marks.map((m) => [m.at, m.ids])).toEqual([
      [0.25, ['six']],
      [0.5, ['noon', 'noon-and-a-minute']],
    ]);
  });
});

describe('transferView', () => {
  it('turns picture events into what the page shows; a picture waiting for the link is not an error', () => {
    const base = { pictureId: 'p', shipId: 'S1' };
    expect(transferView(undefined)).toEqual({ kind: 'none' });
    expect(transferView({ ...base, event: 'progress', bytes: 10, total: 40 })).toEqual({ kind: 'progress', bytes: 10, total: 40 });
    expect(transferView({ ...base, event: 'waiting', bytes: 10, total: 40 })).toEqual({ kind: 'waiting', bytes: 10, total: 40 });
    expect(transferView({ ...base, event: 'stored', bytes: 40, total: 40 })).toEqual({ kind: 'stored', total: 40 });
    expect(transferView({ ...base, event: 'failed', code: 'rejected', message: 'checksum' })).toEqual({ kind: 'failed', code: 'rejected', message: 'checksum' });
  });
});
