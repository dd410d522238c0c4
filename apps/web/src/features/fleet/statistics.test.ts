import { describe, expect, it } from 'vitest';
import { countFleet } from './statistics.ts';

describe('fleet counts for the statistics panel', () => {
  it('counts ships by online and channels by any online camera', () => {
    const counts = countFleet(
      { shipCount: 5, channelCount: 23 },
      [{ online: true }, { online: false }, { online: true }],
      [
        { channelId: 'C1', online: true },
        { channelId: 'C2', online: true },
        { channelId: 'C2', online: false },
        { channelId: 'C3', online: false },
      ],
    );
    expect(counts).toEqual({ shipsOnline: 2, shipsOffline: 3, channelsOnline: 2, channelsOffline: 21 });
  });

  it('never answers negative counts', () => {
    expect(countFleet({ shipCount: 0, channelCount: 0 }, [{ online: true }], [{ channelId: 'C1', online: true }])).toEqual({
      shipsOnline: 1,
      shipsOffline: 0,
      channelsOnline: 0,
      channelsOffline: 0,
    });
  });
});
