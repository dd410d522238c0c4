import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  type AgentMessageOf,
  LIMITS,
  type PictureEvent,
  type PictureFetchAnswer,
  type PictureFilter,
  type PicturePage,
  type ShipPicList,
  type ShipPicListRequest,
  type ShipPictureEntry,
  type SnapshotAnswer,
  decodeThumb,
  dest,
} from '@ship-cctv/protocol';
import { type AgentGateway, type LinkStreams, type Reply, ShipAskError, ask, startAsk } from '../../core/ship-link/index.ts';
import type { Db } from '../../core/db/client.ts';
import { badRequest, forbidden, notFound } from '../../core/http/envelope.ts';
import type { Access } from '../../core/orgs/access.ts';
import { visibleSubtreeOrgIds } from '../../core/orgs/org-tree.ts';
import type { FleetService } from '../fleet/index.ts';
import { chooseTemplate } from '../fleet/index.ts';
import type { PictureFiles } from './picture-files.ts';
import { PictureIndex, PicturePlaces, type PictureRow } from './repo.ts';
import { PictureInbox } from './picture-inbox.ts';
import { TaskService } from './task-service.ts';

export interface PictureServiceOptions {
  /** How long the ship has to answer a list or fetch (and to take a picture). */
  answerTimeoutMs: number;
  /** Pictures held on shore longer than this are deleted. Default 90 days. */
  maxAgeMs: number;
  /** All pictures on shore stay under this; the oldest go first. Default 20 GiB. */
  maxBytes: number;
  /** A ship's list is asked for at most this many pictures when the request names none. */
  defaultListLimit: number;
  /** The longest time range one list covers. */
  maxRangeMs: number;
  /** A picture the shared store did not take yet is tried again after `firstMs`, doubling up to `maxMs`. */
  storeRetry: { firstMs: number; maxMs: number };
}

export const PICTURE_DEFAULTS: PictureServiceOptions = {
  answerTimeoutMs: 30_000,
  maxAgeMs: 90 * 86_400_000,
  maxBytes: 20 * 1024 ** 3,
  defaultListLimit: 48,
  maxRangeMs: 31 * 86_400_000,
  storeRetry: { firstMs: 2_000, maxMs: 60_000 },
};

/** The picture config (spec §9: 720) is a 1280×720 picture unless the ship's definitions name it. */
export const PICTURE_CONFIG_SIZE = { width: 1280, height: 720 } as const;

/** What became of a snapshot: taken on the ship (its size), or why not (the ship's code, or why asking failed). */
type SnapshotOutcome = { taken: true; bytes: number } | { taken: false; code: string; message: string };

/** A ship's list of its pictures, with the thumbnails that came. */
interface ListAnswer {
  pictures: ShipPictureEntry[];
  truncated: boolean;
  linkBytes: number;
  thumbs: Map<number, Uint8Array>;
}

/** The ship could not list or fetch: its code in ask()'s words. */
function refused(msg: AgentMessageOf<'pictures'> & { type: 'pictures.failed' }, reply: Reply<unknown>): void {
  reply.fail(msg.code === 'notFound' ? 'notFound' : msg.code === 'busy' ? 'busy' : 'refused', `the ship could not answer: ${msg.message}`);
}

export interface PictureBlob {
  bytes: Buffer;
  etag: string;
  fileName: string;
}

/** What another instance asks the one holding a ship's link to do: hand the ship its snapshot tasks. */
const TASKS_TOPIC = 'pictures.tasks';

/**
 * Pictures as operators reach them: snapshot now, what shore holds (by organisation, ship,
 * channel, time, origin), what a ship holds (asked over its link, thumbnails cached on shore) and
 * fetching one of those. Every call checks the organisation first: a picture of another
 * organisation is 403 whether or not its id was guessed right.
 */
export class PictureService {
  readonly index: PictureIndex;
  private readonly places: PicturePlaces;
  readonly inbox: PictureInbox;
  /** Snapshot tasks: planned on shore, run by the ships. */
  readonly tasks: TaskService;
  private readonly opts: PictureServiceOptions;
  private readonly shipNames = new Map<string, string>();
  /** Fetches waiting for a picture to reach shore (tests and benches await them). */
  private readonly arrivals = new Map<string, Set<() => void>>();

  constructor(
    db: Db,
    private readonly fleet: FleetService,
    gateway: AgentGateway,
    /** Where snapshots and questions to ships go: the ship's link here, or through its owner. */
    private readonly streams: LinkStreams,
    readonly files: PictureFiles,
    private readonly publishRaw: (destination: string, body: string) => void,
    private readonly log: FastifyBaseLogger,
    opts: Partial<PictureServiceOptions> = {},
  ) {
    this.opts = { ...PICTURE_DEFAULTS, ...opts };
    this.index = new PictureIndex(db);
    this.places = new PicturePlaces(db);
    this.tasks = new TaskService({
      db,
      fleet,
      linkUp: (shipId) => streams.linkUp(shipId),
      pictureSize: (access, orgId, shipId, templateId) => this.pictureSize(access, orgId, shipId, templateId),
      pushTasks: (shipId) => this.pushTasks(shipId),
    });
    this.inbox = new PictureInbox({
      gateway,
      files,
      index: this.index,
      ownerOf: (shipId, cameraId) => this.ownerOf(shipId, cameraId),
      publish: (event) => this.publish(event),
      stored: (_shipId, pictureId) => this.arrived(pictureId),
      log,
      tasks: this.tasks,
      storeRetry: this.opts.storeRetry,
    });
    streams.events.on('nudged', this.onNudged);
  }

  close(): void {
    this.streams.events.off('nudged', this.onNudged);
    this.inbox.close();
  }

  /** The ship's link is here: its tasks go down now (on its inbox, opened for them if need be); else the instance holding its link is asked to send them. */
  private async pushTasks(shipId: string): Promise<void> {
    if (this.inbox.holds(shipId)) return this.inbox.pushTasks(shipId);
    this.streams.nudge(shipId, TASKS_TOPIC);
  }

  private readonly onNudged = (shipId: string, topic: string) => {
    if (topic !== TASKS_TOPIC) return;
    this.inbox.pushTasks(shipId).catch((err: unknown) => this.log.error({ err, shipId }, 'pictures: handing over tasks asked by another instance failed'));
  };

  /**
   * Snapshot now (`source` live) or from the ship recorder at a time: answers the picture's id at
   * once. `opts.pictureId` names the picture (a caller that recorded the id first, e.g. stills);
   * `opts.outcome` hears whether the ship took it (with its size) or why not.
   */
  async snapshot(
    access: Access,
    p: { shipId: string; channelId: string; cameraId: string; templateId: number; source: string },
    opts: { pictureId?: string; outcome?: (o: SnapshotOutcome) => void } = {},
  ): Promise<SnapshotAnswer> {
    const { camera, channel, ship } = await this.fleet.requireCameraOfShip(access, p.shipId, p.cameraId);
    if (channel.id !== p.channelId) throw notFound(`Camera ${p.cameraId} in channel ${p.channelId}`);
    const at = p.source === 'live' ? undefined : Number(p.source);
    if (at !== undefined && at > Date.now() + 60_000) throw badRequest('source is a time in the future: a picture can be taken now (live) or from the past');
    const size = await this.pictureSize(access, ship.orgId, ship.id, p.templateId);
    const pictureId = opts.pictureId ?? randomUUID().replaceAll('-', '');
    const asked = await startAsk<'pictures', SnapshotOutcome>(this.streams, {
      shipId: ship.id,
      kind: 'pictures',
      request: (streamId) => ({ type: 'pictures.take', streamId, pictureId, cameraId: camera.id, ...size, ...(at !== undefined ? { at } : {}), origin: 'manual' }),
      // The ship's refusal is an outcome with its own code (cameraOffline, noRecording, …), told as it is.
      answer: (msg, reply): void => {
        if (msg.type === 'pictures.taken') reply.done({ taken: true, bytes: msg.picture.bytes });
        else if (msg.type === 'pictures.failed') reply.done({ taken: false, code: msg.code, message: msg.message });
      },
      timeoutMs: this.opts.answerTimeoutMs,
    });
    void asked.answer
      .catch((err: unknown): SnapshotOutcome => ({ taken: false, code: err instanceof ShipAskError ? err.reason : 'failed', message: err instanceof Error ? err.message : String(err) }))
      .then((o) => {
        if (o.taken) this.publish({ event: 'taken', shipId: ship.id, pictureId, cameraId: camera.id, bytes: 0, total: o.bytes });
        else this.publish({ event: 'failed', shipId: ship.id, pictureId, cameraId: camera.id, code: o.code, message: o.message });
        opts.outcome?.(o);
      })
      .catch((err: unknown) => this.log.error({ err, shipId: ship.id, pictureId }, 'pictures: telling what became of a snapshot failed'));
    return { pictureId, shipId: ship.id, cameraId: camera.id, ...size };
  }

  /** A picture shore holds (or a ship's thumbnail it cached), after the organisation check. */
  async blob(access: Access, id: string, thumb: boolean): Promise<PictureBlob> {
    const picture = await this.index.get(id);
    if (picture) {
      if (!access.visibleOrgIds.has(picture.orgId)) throw forbidden();
      const bytes = await this.files.read(thumb ? picture.thumbFile : picture.file);
      if (!bytes) throw notFound('Picture file');
      return { bytes, etag: `"${picture.sha256.slice(0, 32)}${thumb ? '-t' : ''}"`, fileName: `${picture.shipName}-${picture.cameraId}-${new Date(picture.takenAt).toISOString().replace(/[:.]/g, '-')}${thumb ? '-thumb' : ''}.jpg` };
    }
    const shipPicture = await this.index.shipPicture(id);
    if (!shipPicture) throw notFound('Picture');
    await this.fleet.requireShip(access, shipPicture.shipId);
    // Only its thumbnail is on shore; the picture itself crosses when fetched.
    const bytes = thumb && shipPicture.thumbFile ? await this.files.read(shipPicture.thumbFile) : undefined;
    if (!bytes) throw notFound(thumb ? 'Thumbnail' : 'Picture on shore (fetch it from the ship first)');
    return { bytes, etag: `"ship-${id}-t"`, fileName: `${id}-thumb.jpg` };
  }

  /** Shore's pictures, newest first, limited to the organisations the user may see. */
  async query(access: Access, filter: PictureFilter, page: number, size: number): Promise<PicturePage> {
    if (filter.from !== undefined && filter.to !== undefined && filter.to <= filter.from) throw badRequest('to must be after from');
    const orgIds = filter.orgId !== undefined ? visibleSubtreeOrgIds(access, filter.orgId) : [...access.visibleOrgIds];
    if (filter.shipId !== undefined) await this.fleet.requireShip(access, filter.shipId);
    if (filter.cameraId !== undefined) await this.fleet.requireCamera(access, filter.cameraId);
    if (filter.channelId !== undefined) await this.requireChannel(access, filter.channelId);
    const { total, pictures } = await this.index.query({ orgIds, ...filter }, page, size);
    return { page, size, total, pictures };
  }

  /** What a ship holds of a camera in [from, to), newest first, with thumbnails; from shore's cache when the ship is offline. */
  async shipList(access: Access, shipId: string, body: ShipPicListRequest): Promise<ShipPicList> {
    const { from, to, cameraId } = body;
    // Whose ship it is comes first: another organisation learns nothing, not even that a range is bad.
    await this.fleet.requireCameraOfShip(access, shipId, cameraId);
    if (!(from < to)) throw badRequest(`from (${from}) must be before to (${to})`);
    if (to - from > this.opts.maxRangeMs) throw badRequest(`a list covers at most ${Math.round(this.opts.maxRangeMs / 86_400_000)} days`);
    const limit = body.limit ?? this.opts.defaultListLimit;
    const answer = await this.askList(shipId, cameraId, from, to, limit).catch((err: unknown) => {
      if (err instanceof ShipAskError && err.reason === 'offline') return undefined;
      throw err;
    });
    if (!answer) {
      const rows = await this.index.shipPictures(shipId, cameraId, from, to, limit);
      const held = await this.index.held(rows.map((r) => r.id));
      return {
        shipId,
        cameraId,
        from,
        to,
        cached: true,
        truncated: rows.length >= limit,
        linkBytes: 0,
        pictures: rows.map((r) => ({ pictureId: r.id, cameraId, time: r.takenAt.getTime(), bytes: r.bytes, width: r.width, height: r.height, origin: r.origin === 'task' ? 'task' : 'manual', onShore: held.has(r.id), hasThumb: r.thumbFile !== null })),
      };
    }
    const thumbFiles = await Promise.all(
      answer.pictures.map((p, i) => {
        const thumb = answer.thumbs.get(i);
        return thumb ? this.files.saveShipThumb(shipId, p.pictureId, thumb) : null;
      }),
    );
    await this.index.rememberShipPictures(shipId, answer.pictures.map((p, i) => ({ ...p, thumbFile: thumbFiles[i] ?? null })));
    if (!answer.truncated) {
      // What the ship no longer lists in this range, its retention took: shore forgets it too.
      for (const gone of await this.index.forgetShipPictures(shipId, cameraId, from, to, new Set(answer.pictures.map((p) => p.pictureId)))) await this.files.remove(gone.thumbFile);
    }
    const held = await this.index.held(answer.pictures.map((p) => p.pictureId));
    return {
      shipId,
      cameraId,
      from,
      to,
      cached: false,
      truncated: answer.truncated,
      linkBytes: answer.linkBytes,
      pictures: answer.pictures.map((p, i) => ({ pictureId: p.pictureId, cameraId, time: p.time, bytes: p.bytes, width: p.width, height: p.height, origin: p.origin, onShore: held.has(p.pictureId), hasThumb: thumbFiles[i] !== null })),
    };
  }

  /** Asks the ship to send one of its pictures next (an operator opened it). */
  async fetch(access: Access, shipId: string, pictureId: string): Promise<PictureFetchAnswer> {
    await this.fleet.requireShip(access, shipId);
    const held = await this.index.get(pictureId);
    if (held) {
      if (held.shipId !== shipId) throw notFound(`Picture ${pictureId} of ship ${shipId}`);
      return { pictureId, state: 'onShore', position: 0, bytes: held.bytes };
    }
    // Only a picture a list showed can be fetched: an id shore never saw is not asked of the ship.
    const known = await this.index.shipPicture(pictureId);
    if (!known || known.shipId !== shipId) throw notFound(`Picture ${pictureId} of ship ${shipId} (list the ship's pictures first)`);
    const position: number = await ask(this.streams, {
      shipId,
      kind: 'pictures',
      request: (streamId) => ({ type: 'pictures.fetch', streamId, pictureId }),
      answer: (msg, reply) => {
        if (msg.type === 'pictures.failed') return refused(msg, reply);
        if (msg.type === 'pictures.queued') reply.done(msg.position);
      },
      timeoutMs: this.opts.answerTimeoutMs,
    });
    this.publish({ event: 'queued', shipId, pictureId, cameraId: known.cameraId, total: known.bytes });
    return { pictureId, state: 'queued', position, bytes: known.bytes };
  }

  /** Resolves once the picture is on shore (or after `timeoutMs`, false). */
  waitFor(pictureId: string, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      void this.index.get(pictureId).then((row) => {
        if (row) return resolve(true);
        const done = () => {
          clearTimeout(timer);
          this.arrivals.get(pictureId)?.delete(done);
          resolve(true);
        };
        const timer = setTimeout(() => {
          this.arrivals.get(pictureId)?.delete(done);
          resolve(false);
        }, timeoutMs);
        const set = this.arrivals.get(pictureId) ?? new Set();
        set.add(done);
        this.arrivals.set(pictureId, set);
      });
    });
  }

  /** Deletes what is older than the age limit, then the oldest until under the size limit. */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    for (;;) {
      const old = await this.index.takenBefore(now - this.opts.maxAgeMs, 200);
      if (old.length === 0) break;
      for (const p of old) removed += await this.remove(p);
    }
    let total = await this.index.totalBytes();
    while (total > this.opts.maxBytes) {
      const oldest = await this.index.oldest(50);
      if (oldest.length === 0) break;
      for (const p of oldest) {
        if (total <= this.opts.maxBytes) break;
        removed += await this.remove(p);
        total -= p.bytes + p.thumbBytes;
      }
    }
    return removed;
  }

  private async remove(p: PictureRow): Promise<number> {
    await this.index.delete(p.id);
    await this.files.remove(p.file);
    await this.files.remove(p.thumbFile);
    return 1;
  }

  private arrived(pictureId: string): void {
    for (const done of [...(this.arrivals.get(pictureId) ?? [])]) done();
    this.arrivals.delete(pictureId);
  }

  /** The ship's list: answered once every thumbnail it announced came, or with those that came when time is up. */
  private askList(shipId: string, cameraId: string, from: number, to: number, limit: number): Promise<ListAnswer> {
    let listed: ListAnswer | undefined;
    const complete = (l: ListAnswer) => l.pictures.every((p, i) => p.thumbBytes === 0 || l.thumbs.has(i));
    return ask(this.streams, {
      shipId,
      kind: 'pictures',
      request: (streamId) => ({ type: 'pictures.list', streamId, cameraId, from, to, limit }),
      answer: (msg, reply) => {
        if (msg.type === 'pictures.failed') return refused(msg, reply);
        if (msg.type !== 'pictures.listed') return;
        listed = { pictures: msg.pictures, truncated: msg.truncated, linkBytes: Buffer.byteLength(JSON.stringify(msg)), thumbs: new Map() };
        // Thumbnails follow as bytes; the list will do without those still on their way when time is up.
        if (complete(listed)) reply.done(listed);
        else reply.partial(listed);
      },
      data: (payload, reply) => {
        const thumb = decodeThumb(payload);
        if (!thumb || !listed?.pictures[thumb.index]) return;
        listed.thumbs.set(thumb.index, Buffer.from(thumb.jpeg));
        listed.linkBytes += payload.length;
        if (complete(listed)) reply.done(listed);
      },
      timeoutMs: this.opts.answerTimeoutMs,
    });
  }

  private async requireChannel(access: Access, channelId: string): Promise<void> {
    const orgId = await this.places.orgOfChannel(channelId);
    if (orgId === undefined) throw notFound('Channel');
    if (!access.visibleOrgIds.has(orgId)) throw forbidden();
  }

  /** The box a template's pictures fit into: its definition model's size, or the picture config's. */
  async pictureSize(access: Access, orgId: string, shipId: string, templateId: number): Promise<{ width: number; height: number }> {
    const config = await this.fleet.shipConfig(access, orgId, shipId);
    const choice = chooseTemplate(config, templateId);
    if (choice.ok) return { width: choice.requested.width, height: choice.requested.height };
    if (templateId === LIMITS.pictureConfigId) return { ...PICTURE_CONFIG_SIZE };
    throw badRequest(`template ${templateId} is not one of the ship's definitions (or ${LIMITS.pictureConfigId}, the picture config)`);
  }

  private async ownerOf(shipId: string, cameraId: string): Promise<{ orgId: string; channelId: string } | undefined> {
    const row = await this.places.camera(cameraId);
    if (row && row.shipId === shipId) return { orgId: row.orgId, channelId: row.channelId };
    return undefined;
  }

  private publish(event: PictureEvent): void {
    void this.shipName(event.shipId)
      .then((name) => {
        if (name) this.publishRaw(dest.pictures(name), JSON.stringify(event));
      })
      .catch((err: unknown) => this.log.warn({ err, shipId: event.shipId }, 'pictures: publishing an event failed'));
  }

  private async shipName(shipId: string): Promise<string | undefined> {
    const known = this.shipNames.get(shipId);
    if (known) return known;
    const name = await this.places.shipName(shipId);
    if (name !== undefined) this.shipNames.set(shipId, name);
    return name;
  }
}
