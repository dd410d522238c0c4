import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND, type PictureMeta, encodePictureChunk } from '@ship-cctv/protocol';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { type TestApp, build } from '../helpers/build.ts';

const SHIP = 'S1001';
const OTHER = 'S1002';

const meta = (pictureId: string, bytes: Buffer, cameraId: string): PictureMeta => ({
  pictureId,
  cameraId,
  time: Date.now() - 60_000,
  mime: 'image/jpeg',
  bytes: bytes.length,
  width: 160,
  height: 90,
  origin: 'manual',
  sha256: createHash('sha256').update(bytes).digest('hex'),
});

/**
 * A ship asking the inbox about picture ids: another ship's picture is answered as an unknown id is
 * (send it from byte 0), never `stored`, so the answers tell nothing of other ships' pictures; and
 * the other ship's picture stays as it was.
 */
describe('picture inbox answers per ship', () => {
  let t: TestApp;
  let port: number;
  let agent: RawAgent | undefined;
  let picture: Buffer;

  beforeAll(async () => {
    picture = await sharp({ create: { width: 160, height: 90, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg().toBuffer();
    t = await build();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    // A picture of the other ship, stored on shore.
    const theirs = meta('other-ship-pic-1', picture, `${OTHER}-C01-1`);
    t.app.pictures.files.append(OTHER, theirs.pictureId, 0, 0, picture);
    const verdict = await t.app.pictures.files.complete(OTHER, theirs);
    if (!verdict.ok) throw new Error(verdict.reason);
    await t.app.pictures.index.insert({ id: theirs.pictureId, orgId: 'blueocean', shipId: OTHER, channelId: `${OTHER}-C01`, cameraId: theirs.cameraId, takenAt: new Date(theirs.time), origin: 'manual', mime: theirs.mime, bytes: theirs.bytes, width: 160, height: 90, sha256: theirs.sha256, file: verdict.file, thumbFile: verdict.thumbFile, thumbBytes: verdict.thumbBytes });
  });
  afterAll(async () => {
    await agent?.close();
    await t?.close();
  });

  it("answers another ship's picture id as it answers an unknown one", async () => {
    const a = await RawAgent.connect(port, SHIP, await t.app.agentKeys.issue(SHIP), { hello: {}, capabilities: ['pictures'], asks: ['pictures'] });
    agent = a;
    await a.until(() => a.of('pictures.inbox').length > 0, 'pictures.inbox');
    const inbox = a.of('pictures.inbox')[0]!.streamId;
    const answerTo = async (pictureId: string) => {
      a.send({ type: 'pictures.offer', streamId: inbox, picture: meta(pictureId, picture, `${SHIP}-C01-1`) });
      await a.until(() => [...a.of('pictures.resume'), ...a.of('pictures.stored'), ...a.of('pictures.rejected')].some((m) => m.pictureId === pictureId), `an answer about ${pictureId}`);
      const answers = [...a.of('pictures.resume'), ...a.of('pictures.stored'), ...a.of('pictures.rejected')].filter((m) => m.pictureId === pictureId);
      return answers.map(({ type, ...rest }) => ({ type, offset: 'offset' in rest ? rest.offset : undefined }));
    };
    const unknown = await answerTo('never-seen-pic-1');
    const others = await answerTo('other-ship-pic-1');
    expect(unknown).toEqual([{ type: 'pictures.resume', offset: 0 }]);
    expect(others).toEqual(unknown);

    // Sent in full, it is answered as any picture is; the other ship's picture stays its own.
    a.sendFrame(BINARY_KIND.pictures, inbox, encodePictureChunk(0, picture));
    await a.until(() => a.of('pictures.stored').some((m) => m.pictureId === 'other-ship-pic-1'), 'stored');
    expect((await t.app.pictures.index.get('other-ship-pic-1'))?.shipId).toBe(OTHER);
  });
});
