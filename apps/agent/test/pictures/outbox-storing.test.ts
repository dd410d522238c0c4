/**
 * The outbox and shore's `storing`: a picture shore holds whole but has not stored yet is not sent
 * again — the ship waits for `stored` (an offer again after the answer time costs no bytes, shore
 * says where to resume), and forgets the picture only on `stored`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentMessage } from '@ship-cctv/protocol';
import { CameraSources } from '../../src/camera-sources.ts';
import type { CameraConfig } from '../../src/cameras.ts';
import { ShipPictures } from '../../src/pictures/ship-pictures.ts';

const CAMERA_ID = 'S1-C01-1';
const INBOX = 4;
const ANSWER_MS = 10_000;

describe('the outbox when shore says it is storing a picture', () => {
  let pictures: ShipPictures;
  const sent: AgentMessage[] = [];
  let frames = 0;

  beforeEach(() => {
    vi.useFakeTimers();
    // The pictures are made up here: the camera is never opened.
    const cameras: CameraConfig[] = [{ cameraId: CAMERA_ID, source: 'rtsp://127.0.0.1:9/unused' }];
    pictures = new ShipPictures(new CameraSources(cameras), {
      answerTimeoutMs: ANSWER_MS,
      shoot: async (_camera, _at, size) => ({ jpeg: Buffer.alloc(20_000, 7), thumb: Buffer.alloc(100, 1), width: size.width, height: size.height, time: Date.now() }),
    });
    pictures.attach({ sendJson: (m) => sent.push(m), sendBinary: () => frames++ });
    pictures.message({ type: 'pictures.inbox', streamId: INBOX });
  });
  afterEach(() => {
    pictures.close();
    vi.useRealTimers();
    sent.length = 0;
    frames = 0;
  });

  it('waits for stored instead of sending the picture again, and forgets it only then', async () => {
    const pictureId = 'pic-storing-01';
    await pictures.take({ type: 'pictures.take', streamId: 9, pictureId, cameraId: CAMERA_ID, width: 320, height: 180, origin: 'manual' });
    const offers = () => sent.filter((m) => m.type === 'pictures.offer').length;
    expect(offers()).toBe(1);
    pictures.message({ type: 'pictures.resume', streamId: INBOX, pictureId, offset: 0 });
    const sentFrames = frames;
    expect(sentFrames).toBeGreaterThan(0);

    // Shore holds it whole and waits for its store: the answer time starts again from here.
    vi.advanceTimersByTime(ANSWER_MS - 1_000);
    pictures.message({ type: 'pictures.storing', streamId: INBOX, pictureId });
    vi.advanceTimersByTime(ANSWER_MS - 1_000);
    expect(offers()).toBe(1);
    expect(pictures.outbox.has(pictureId)).toBe(true);

    // Nothing more heard: offered again (shore answers `storing` again, no byte is asked for).
    vi.advanceTimersByTime(1_000);
    expect(offers()).toBe(2);
    pictures.message({ type: 'pictures.storing', streamId: INBOX, pictureId });
    expect(frames).toBe(sentFrames);
    expect(pictures.outbox.has(pictureId)).toBe(true);

    pictures.message({ type: 'pictures.stored', streamId: INBOX, pictureId });
    expect(pictures.outbox.has(pictureId)).toBe(false);
    vi.advanceTimersByTime(ANSWER_MS * 2);
    expect(offers()).toBe(2);
    expect(frames).toBe(sentFrames);
  });
});

/**
 * From link version 4 the inbox opens on demand: the ship asks for it when its outbox has
 * something, says `idle` once everything is stored, sends nothing new on it after that, and asks
 * for a new one once shore says the old one is closed.
 */
describe('the outbox with an inbox on demand (link version 4)', () => {
  const sent: AgentMessage[] = [];
  let pictures: ShipPictures;

  beforeEach(() => {
    const cameras: CameraConfig[] = [{ cameraId: CAMERA_ID, source: 'rtsp://127.0.0.1:9/unused' }];
    pictures = new ShipPictures(new CameraSources(cameras), {
      shoot: async (_camera, _at, size) => ({ jpeg: Buffer.alloc(5_000, 3), thumb: Buffer.alloc(100, 1), width: size.width, height: size.height, time: Date.now() }),
    });
    pictures.attach({ sendJson: (m) => sent.push(m), sendBinary: () => undefined });
  });
  afterEach(() => {
    pictures.close();
    sent.length = 0;
  });

  const take = (pictureId: string) => pictures.take({ type: 'pictures.take', streamId: 9, pictureId, cameraId: CAMERA_ID, width: 320, height: 180, origin: 'manual' });
  const of = <T extends AgentMessage['type']>(type: T) => sent.filter((m): m is Extract<AgentMessage, { type: T }> => m.type === type);

  it('asks for the inbox when it has a picture, says idle when all are stored, and waits for the closing before it sends more', async () => {
    pictures.welcomed(4);
    expect(sent).toEqual([]);
    await take('pic-demand-01');
    await take('pic-demand-02');
    expect(of('outbox')).toEqual([{ type: 'outbox', kind: 'pictures' }]);
    expect(of('pictures.offer')).toHaveLength(0);

    pictures.message({ type: 'pictures.inbox', streamId: 5 });
    expect(of('pictures.offer').map((m) => [m.streamId, m.picture.pictureId])).toEqual([[5, 'pic-demand-01']]);
    pictures.message({ type: 'pictures.stored', streamId: 5, pictureId: 'pic-demand-01' });
    expect(of('pictures.idle')).toHaveLength(0);
    pictures.message({ type: 'pictures.stored', streamId: 5, pictureId: 'pic-demand-02' });
    expect(of('pictures.idle')).toEqual([{ type: 'pictures.idle', streamId: 5 }]);

    // A picture taken after the idle waits: shore may have closed the inbox already.
    await take('pic-demand-03');
    expect(of('pictures.offer')).toHaveLength(2);
    pictures.message({ type: 'pictures.inboxClosed', streamId: 5 });
    expect(of('outbox')).toHaveLength(2);
    pictures.message({ type: 'pictures.inbox', streamId: 6 });
    expect(of('pictures.offer').at(-1)).toMatchObject({ streamId: 6, picture: { pictureId: 'pic-demand-03' } });
    expect(pictures.outbox.has('pic-demand-03')).toBe(true);
  });

  it('keeps the inbox a version 3 shore opens at hello, and never asks or says idle', async () => {
    pictures.welcomed(3);
    await take('pic-older-01');
    pictures.message({ type: 'pictures.inbox', streamId: 5 });
    pictures.message({ type: 'pictures.stored', streamId: 5, pictureId: 'pic-older-01' });
    expect(of('outbox')).toHaveLength(0);
    expect(of('pictures.idle')).toHaveLength(0);
    expect(of('pictures.offer')).toHaveLength(1);
  });
});
