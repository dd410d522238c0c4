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
