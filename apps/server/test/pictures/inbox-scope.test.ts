import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_LINK_MIN_VERSION, BINARY_KIND, INBOX_ON_DEMAND_VERSION, type PictureMeta, encodePictureChunk } from '@ship-cctv/protocol';
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
  const others: RawAgent[] = [];
  afterAll(async () => {
    await agent?.close();
    for (const a of others) await a.close();
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

  it('opens an agent’s inboxes on demand from link version 4 and closes them when it says idle; an older agent keeps its inboxes for the link', async () => {
    const ship = 'S1003';
    const a = await RawAgent.connect(port, ship, await t.app.agentKeys.issue(ship), { hello: {}, capabilities: ['pictures', 'events'] });
    others.push(a);
    await a.until(() => a.of('welcome').length > 0, 'welcome');
    expect(a.of('welcome')[0]!.protocol).toBeGreaterThanOrEqual(INBOX_ON_DEMAND_VERSION);
    await a.until(() => t.app.pictures.inbox.holds(ship), 'the link held here');
    const streamsIdle = t.app.agents.openStreamCount;

    const dropped: string[] = [];
    t.app.agents.events.on('dropped', (d) => {
      if (d.shipId === ship) dropped.push(d.detail);
    });

    // The ship asks: the inbox opens; a picture crosses on it.
    a.send({ type: 'outbox', kind: 'pictures' });
    await a.until(() => a.of('pictures.tasks').length === 1, 'pictures.tasks');
    const first = a.of('pictures.inbox')[0]!.streamId;
    expect(t.app.pictures.inbox.isOpen(ship)).toBe(true);
    a.send({ type: 'pictures.offer', streamId: first, picture: meta('on-demand-pic-1', picture, `${ship}-C01-1`) });
    await a.until(() => a.of('pictures.resume').some((m) => m.pictureId === 'on-demand-pic-1'), 'resume');
    a.sendFrame(BINARY_KIND.pictures, first, encodePictureChunk(0, picture));
    await a.until(() => a.of('pictures.stored').some((m) => m.pictureId === 'on-demand-pic-1'), 'stored');
    // Idle said before the tasks are answered: the inbox waits for the answer, then closes by itself.
    a.send({ type: 'pictures.idle', streamId: first });
    a.send({ type: 'pictures.tasksHeld', streamId: first, taskIds: [] });
    await a.until(() => a.of('pictures.inboxClosed').length === 1, 'pictures.inboxClosed');
    expect(a.of('pictures.inboxClosed')[0]!.streamId).toBe(first);
    expect(t.app.pictures.inbox.isOpen(ship)).toBe(false);
    expect(t.app.agents.openStreamCount).toBe(streamsIdle);
    expect(dropped).toEqual([]);

    // Shore has tasks to hand over: it opens a new inbox for them by itself.
    await t.app.pictures.inbox.pushTasks(ship);
    await a.until(() => a.of('pictures.tasks').length === 2, 'tasks on an inbox shore opened');
    const second = a.of('pictures.inbox')[1]!.streamId;
    expect(second).not.toBe(first);
    expect(a.of('pictures.tasks')[1]!.streamId).toBe(second);
    a.send({ type: 'pictures.tasksHeld', streamId: second, taskIds: [] });
    a.send({ type: 'pictures.idle', streamId: second });
    await a.until(() => a.of('pictures.inboxClosed').length === 2, 'the second inbox closed');
    expect(dropped).toEqual([]);

    // The events inbox likewise: opened on the ship's ask with the cameras' settings, closed on idle.
    a.send({ type: 'outbox', kind: 'events' });
    await a.until(() => a.of('events.settings').length === 1, 'events.settings');
    const events = a.of('events.inbox')[0]!.streamId;
    a.send({ type: 'events.idle', streamId: events });
    await a.until(() => a.of('events.inboxClosed').length === 1, 'events.inboxClosed');
    // Every inbox the ship saw was one it asked for or one shore had something for: none came with the hello.
    expect(a.of('pictures.inbox')).toHaveLength(2);
    expect(a.of('events.inbox')).toHaveLength(1);
    expect(t.app.agents.openStreamCount).toBe(streamsIdle);

    // A version 3 agent gets both inboxes at hello without asking, as before.
    const older = OTHER;
    const b = await RawAgent.connect(port, older, await t.app.agentKeys.issue(older), {
      hello: { protocol: { min: AGENT_LINK_MIN_VERSION, max: INBOX_ON_DEMAND_VERSION - 1 } },
      capabilities: ['pictures', 'events'],
    });
    others.push(b);
    await b.until(() => b.of('pictures.inbox').length === 1 && b.of('events.inbox').length === 1, 'both inboxes at hello');
    expect(b.of('welcome')[0]!.protocol).toBe(INBOX_ON_DEMAND_VERSION - 1);
  });
});
