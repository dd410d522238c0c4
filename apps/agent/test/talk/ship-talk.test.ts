import { type AgentMessage, packTalkPackets } from '@ship-cctv/protocol';
import { describe, expect, it } from 'vitest';
import { ShipTalk } from '../../src/talk/ship-talk.ts';
import { opusPackets } from './opus-fixture.ts';

const BRIDGE = 'S1001-C01-1';
const ENGINE = 'S1001-C02-1';

function shipTalk() {
  const sent: AgentMessage[] = [];
  const heard: { cameraId: string; samples: number }[] = [];
  const talk = new ShipTalk(new Set([BRIDGE, ENGINE]), { speaker: { play: (cameraId, pcm) => heard.push({ cameraId, samples: pcm.length }) } });
  talk.attach({ sendJson: (m) => sent.push(m) });
  return { talk, sent, heard };
}

describe('ShipTalk', () => {
  it('answers a second talk.open for a camera in use with talk.failed occupied, and the first talk goes on', async () => {
    const { talk, sent, heard } = shipTalk();
    talk.message({ type: 'talk.open', streamId: 1, cameraId: BRIDGE, codec: 'opus', talker: 'Operator A' });
    talk.message({ type: 'talk.open', streamId: 2, cameraId: BRIDGE, codec: 'opus', talker: 'Operator B' });
    expect(sent).toEqual([
      { type: 'talk.opened', streamId: 1 },
      { type: 'talk.failed', streamId: 2, code: 'occupied', message: expect.stringContaining(BRIDGE) as unknown as string },
    ]);

    // The refused stream's voice goes nowhere; the holder's is heard on the Bridge.
    const packets = await opusPackets(1);
    talk.data(2, packTalkPackets(packets));
    expect(heard).toEqual([]);
    talk.data(1, packTalkPackets(packets));
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.every((h) => h.cameraId === BRIDGE)).toBe(true);

    const ended: { streamId: number; bytes: number }[] = [];
    talk.on('ended', (t) => ended.push({ streamId: t.streamId, bytes: t.bytes }));
    await talk.stopAll();
    expect(ended).toEqual([{ streamId: 1, bytes: packTalkPackets(packets).length }]);
  });

  it('lets another camera talk meanwhile, and the camera again once its talk has closed', async () => {
    const { talk, sent } = shipTalk();
    talk.message({ type: 'talk.open', streamId: 1, cameraId: BRIDGE, codec: 'opus' });
    talk.message({ type: 'talk.open', streamId: 2, cameraId: ENGINE, codec: 'opus' });
    talk.message({ type: 'talk.close', streamId: 1 });
    await new Promise<void>((resolve) => talk.once('ended', () => resolve()));
    talk.message({ type: 'talk.open', streamId: 3, cameraId: BRIDGE, codec: 'opus' });
    expect(sent).toEqual([
      { type: 'talk.opened', streamId: 1 },
      { type: 'talk.opened', streamId: 2 },
      { type: 'talk.opened', streamId: 3 },
    ]);
    await talk.stopAll();
  });
});
