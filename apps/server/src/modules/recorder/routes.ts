import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fastifyStatic from '@fastify/static';
import { Type } from 'typebox';
import {
  CODES,
  ClipJobSchema,
  ClipRequest,
  Envelope,
  ErrorEnvelope,
  ExportKeySchema,
  ExportVerdictSchema,
  RecordConfigInput,
  type RecordConfig,
  RecordConfigQuery,
  RecordConfigSchema,
  RecordIdParam,
  RecordPageParams,
  RecordQueryFilterSchema,
  RecordQueryPageSchema,
  RecordingSegmentSchema,
} from '@ship-cctv/protocol';
import { ApiError, badRequest, forbidden, notFound, ok } from '../../core/http/envelope.ts';
import { requireOrg } from '../../core/orgs/org-tree.ts';
import { toSegment } from './repo.ts';
import { type ClipParty, ClipLimitError } from './clip.ts';
import { verifyExport } from './export-signing.ts';
import { isTimeZone } from '@ship-cctv/protocol';
import { parseByteRange } from '../../core/storage/http-range.ts';

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope };
const security = [{ casJwt: [] }];
const tags = ['recordings'];
/** A file streamed as is (never serialised). */
const FileBody = (description: string) => Type.Unsafe<NodeJS.ReadableStream>({ type: 'string', format: 'binary', description });

/** Largest export the verify operation takes (a 10-minute clip at the highest definition is far below). */
export const VERIFY_MAX_BYTES = 4 * 1024 ** 3;
/** An uploaded export, as its body parser leaves it: in a temporary file removed when answered. */
interface Upload {
  path: string;
  bytes: number;
}
const UploadBody = Type.Unsafe<Upload>({ type: 'string', format: 'binary', description: 'The export file (an MP4 downloaded from /record/clip/download/{jobId}), as application/octet-stream' });

class UploadTooLarge extends Error {
  readonly statusCode = 413;
  constructor() {
    super(`导出文件过大，最多 ${VERIFY_MAX_BYTES / 1024 ** 3} GiB (the export is larger than ${VERIFY_MAX_BYTES / 1024 ** 3} GiB)`);
  }
}

/** Streams an uploaded body into a temporary file (never into memory), refusing it past the limit. */
async function receiveUpload(body: NodeJS.ReadableStream): Promise<Upload> {
  const dir = await mkdtemp(join(tmpdir(), 'ship-cctv-verify-'));
  const path = join(dir, 'export.mp4');
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, next) {
      bytes += chunk.length;
      next(bytes > VERIFY_MAX_BYTES ? new UploadTooLarge() : null, chunk);
    },
  });
  try {
    await pipeline(body, count, createWriteStream(path, { mode: 0o600 }));
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return { path, bytes };
}


/**
 * /api/v1/cctv/record/...: shore recordings (spec §7 complexQuery and clip), their segments (fMP4
 * files served with HTTP Range), clip jobs, and the recording configurations of channels. Every
 * answer is limited to the organisations the user may see.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);
  // sendFile for segment files (this plugin's own, not the web app's: it is registered only when built).
  await app.register(fastifyStatic, { root: app.recorder.root, serve: false });

  const requireRecording = async (access: { visibleOrgIds: Set<string> }, id: string) => {
    const recording = await app.recordings.recording(id);
    if (!recording) throw notFound('Recording');
    if (!access.visibleOrgIds.has(recording.orgId)) throw forbidden();
    return recording;
  };

  app.post(
    '/complexQuery/:page/:size',
    {
      schema: {
        tags,
        summary: 'Shore recordings (newest first) of the ships the user may see, by organisation, ship, channel and time, and the gaps of the span asked with their cause',
        security,
        params: RecordPageParams,
        body: Type.Optional(RecordQueryFilterSchema),
        response: { 200: Envelope(RecordQueryPageSchema), ...errors },
      },
    },
    async (req) => {
      const filter = req.body ?? {};
      if (filter.start !== undefined && filter.end !== undefined && filter.end <= filter.start) {
        throw badRequest('end must be after start');
      }
      let orgIds = [...req.auth.visibleOrgIds];
      if (filter.orgId !== undefined) {
        requireOrg(req.auth, filter.orgId);
        const below = req.auth.orgs.subtree([filter.orgId]);
        orgIds = orgIds.filter((id) => below.has(id));
      }
      if (filter.shipId !== undefined) await app.fleet.requireShip(req.auth, filter.shipId);
      if (filter.cameraId !== undefined) await app.fleet.requireCamera(req.auth, filter.cameraId);
      const { page, size } = req.params;
      const { total, records } = await app.recordings.query(orgIds, filter, page, size);
      const { start, end } = filter;
      const gaps = start !== undefined && end !== undefined ? await app.recordingGaps.forQuery(orgIds, { ...filter, start, end }) : [];
      return ok({ page, size, total, records, gaps });
    },
  );

  app.get(
    '/segments/:id',
    {
      schema: {
        tags,
        summary: "A recording's segments in order; each is a self-contained fMP4 file at /record/segment/{segmentId}",
        security,
        params: RecordIdParam,
        response: { 200: Envelope(Type.Array(RecordingSegmentSchema)), ...errors },
      },
    },
    async (req) => {
      await requireRecording(req.auth, req.params.id);
      return ok((await app.recordings.segments(req.params.id)).map(toSegment));
    },
  );

  app.get(
    '/segment/:id',
    {
      schema: {
        tags,
        summary: 'One segment file (video/mp4, fragmented), with HTTP Range support (206 Partial Content)',
        security,
        params: RecordIdParam,
        response: { 200: FileBody('The whole segment'), 206: FileBody('The requested bytes'), ...errors, 416: ErrorEnvelope },
      },
    },
    async (req, reply) => {
      const segment = await app.recordings.segment(req.params.id);
      if (!segment) throw notFound('Segment');
      if (!req.auth.visibleOrgIds.has(segment.orgId)) throw forbidden();
      reply.header('cache-control', 'private, max-age=86400');
      // A segment this instance wrote is on its disk: @fastify/static answers Range (206, 416 with
      // Content-Range), the type and validators. One written by another instance comes from the
      // shared object store (STORAGE=nats); a missing file is the app's 404.
      const shared = app.recorder.shared;
      if (shared && !(await isFile(join(app.recorder.root, segment.file)))) {
        const object = await shared.stat(segment.file);
        if (!object) throw notFound('Segment file');
        const range = parseByteRange(req.headers.range, object.size);
        reply.header('accept-ranges', 'bytes');
        if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${object.size}`).send({ code: 416, message: 'Range Not Satisfiable', data: null });
        reply.header('last-modified', new Date(object.mtimeMs).toUTCString()).type('video/mp4');
        if (!range) return reply.header('content-length', object.size).send(await shared.read(segment.file));
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${object.size}`)
          .header('content-length', range.end - range.start + 1)
          .send(await shared.read(segment.file, range));
      }
      return reply.sendFile(segment.file, app.recorder.root, { cacheControl: false, acceptRanges: true });
    },
  );

  app.post(
    '/clip/:id',
    {
      schema: {
        tags,
        summary: 'Export [start, end) of a recording as an MP4 (a job: follow it at /record/clip/status/{jobId})',
        security,
        params: RecordIdParam,
        body: ClipRequest,
        response: { 200: Envelope(ClipJobSchema), ...errors },
      },
    },
    async (req) => {
      const recording = await requireRecording(req.auth, req.params.id);
      const { start, end } = req.body;
      if (end <= start) throw badRequest('end must be after start');
      const maxMs = app.recorder.clipMaxMs;
      if (end - start > maxMs) {
        const limit = maxMs % 60_000 === 0 ? `${maxMs / 60_000} minutes` : `${Math.round(maxMs / 1000)} seconds`;
        throw badRequest(`a clip may be at most ${limit} long`);
      }
      if (start < recording.startMs || end > recording.endMs) {
        throw badRequest(`the range must lie within the recording (${new Date(recording.startMs).toISOString()} – ${new Date(recording.endMs).toISOString()})`);
      }
      const camera = await app.fleet.requireCamera(req.auth, recording.cameraId).catch(() => undefined);
      const { user } = req.auth;
      const party: ClipParty = {
        ship: { id: recording.shipId, name: camera?.ship.name ?? recording.shipId },
        camera: { id: recording.cameraId, name: camera?.camera.name ?? recording.cameraId },
        exportedBy: { id: user.id, username: user.username, displayName: user.displayName },
      };
      try {
        return ok(await app.recorder.clips.create({ id: recording.id, orgId: recording.orgId, cameraId: recording.cameraId }, start, end, req.auth.userId, party));
      } catch (err) {
        if (err instanceof ClipLimitError) throw new ApiError(CODES.tooMany, err.message);
        throw err;
      }
    },
  );

  app.get(
    '/clip/status/:id',
    {
      schema: { tags, summary: 'Progress (0–100) of a clip job; when done it has a downloadUrl', security, params: RecordIdParam, response: { 200: Envelope(ClipJobSchema), ...errors } },
    },
    async (req) => {
      const found = await app.recorder.clips.get(req.params.id);
      if (!found) throw notFound('Clip job');
      if (!req.auth.visibleOrgIds.has(found.orgId)) throw forbidden();
      return ok(found.job);
    },
  );

  app.post(
    '/clip/cancel/:id',
    {
      schema: { tags, summary: 'Stops a clip job: a queued one never runs, a running one stops within seconds', security, params: RecordIdParam, response: { 200: Envelope(ClipJobSchema), ...errors } },
    },
    async (req) => {
      const found = await app.recorder.clips.get(req.params.id);
      if (!found) throw notFound('Clip job');
      if (!req.auth.visibleOrgIds.has(found.orgId)) throw forbidden();
      const job = await app.recorder.clips.cancel(req.params.id);
      if (!job) throw notFound('Clip job');
      return ok(job);
    },
  );

  app.get(
    '/clip/download/:id',
    {
      schema: { tags, summary: 'The finished clip as an MP4 attachment', security, params: RecordIdParam, response: { 200: FileBody('The clip (video/mp4)'), ...errors, 409: ErrorEnvelope } },
    },
    async (req, reply) => {
      const found = await app.recorder.clips.get(req.params.id);
      if (!found) throw notFound('Clip job');
      if (!req.auth.visibleOrgIds.has(found.orgId)) throw forbidden();
      if (found.job.state !== 'done') throw new ApiError(409, `the clip is ${found.job.state}, not ready to download`);
      // Made by another instance: from the shared object store (STORAGE=nats).
      const shared = app.recorder.shared;
      const local = !shared || (await isFile(found.output));
      const size = local ? (await stat(found.output)).size : (await shared.statClip(req.params.id))?.size;
      if (size === undefined) throw notFound('Clip file');
      reply
        .header('content-type', 'video/mp4')
        .header('content-length', size)
        .header('content-disposition', `attachment; filename="${found.fileName}"`);
      return reply.send(local ? createReadStream(found.output) : await shared.readClip(req.params.id));
    },
  );

  // Signed exports ---------------------------------------------------------------------------

  app.get(
    '/export/key',
    {
      schema: {
        tags,
        summary: "The installation's public export key (Ed25519, PEM): verifies exports offline with npm run verify-export",
        security,
        response: { 200: Envelope(ExportKeySchema), ...errors },
      },
    },
    async () => ok({ keyId: app.recorder.exportKey.keyId, publicKeyPem: app.recorder.exportKey.publicPem }),
  );

  // The export arrives as raw bytes, written to a temporary file as they come (the verify route
  // only: it removes the file when answered; no other route here takes a file).
  app.addContentTypeParser('application/octet-stream', (req, payload, done) => {
    if (!req.routeOptions.url?.endsWith('/export/verify')) {
      done(new ApiError(415, '此接口不接受文件上传 (this operation takes no file: send JSON)'));
      return;
    }
    receiveUpload(payload).then(
      (upload) => done(null, upload),
      (err: unknown) => done(err as Error),
    );
  });

  app.post(
    '/export/verify',
    {
      schema: {
        tags,
        summary: "Whether a clip export is intact and signed by this installation, and what its signed manifest holds (ship, camera, span, who exported it and when, each file's SHA-256)",
        description:
          'Send the downloaded export file as the body (Content-Type: application/octet-stream). Any changed byte is found: in the video its SHA-256 differs (`contentChanged`), in the manifest or signature the signature fails (`badSignature`), in the structure the manifest is not found (`notSigned`, `malformed`). Answers 200 either way; `intact` says which.',
        security,
        consumes: ['application/octet-stream'],
        body: UploadBody,
        response: { 200: Envelope(ExportVerdictSchema), ...errors, 413: ErrorEnvelope, 415: ErrorEnvelope },
      },
      // The body is a file this route's parser wrote, not JSON to check against a schema.
      validatorCompiler: () => () => true,
      onResponse: async (req) => {
        const upload = req.body as Upload | undefined;
        if (upload && typeof upload.path === 'string') await rm(join(upload.path, '..'), { recursive: true, force: true });
      },
    },
    async (req) => {
      const upload = req.body as Upload | undefined;
      if (!upload || typeof upload.path !== 'string') {
        throw new ApiError(415, '请以 application/octet-stream 上传导出文件 (send the export file as application/octet-stream)');
      }
      return ok(await verifyExport(upload.path, app.recorder.exportKey.publicKey));
    },
  );

  // Recording configurations -----------------------------------------------------------------

  app.get(
    '/config/list',
    {
      schema: {
        tags,
        summary: 'Recording configurations of the channels the user may see (optionally of one ship or camera)',
        security,
        querystring: RecordConfigQuery,
        response: { 200: Envelope(Type.Array(RecordConfigSchema)), ...errors },
      },
    },
    async (req) => {
      const configs = await app.recordings.configs({ orgIds: [...req.auth.visibleOrgIds], shipId: req.query.shipId, cameraId: req.query.cameraId });
      return ok(
        configs.map(({ id, cameraId, mode, schedule, timeZone, enabled, backfill, backfillDefinition }) => ({ id, cameraId, mode, schedule, timeZone, enabled, backfill, backfillDefinition })),
      );
    },
  );

  /** A change that leaves `backfill` or `backfillDefinition` out keeps what the configuration had (`before`); a new one is on, in its organisation's definition. */
  const checkInput = (input: RecordConfigInput, before: Pick<RecordConfig, 'backfill' | 'backfillDefinition'> = { backfill: true, backfillDefinition: null }) => {
    const schedule = input.schedule ?? [];
    if (input.mode === 'scheduled' && schedule.length === 0) throw badRequest('a scheduled configuration needs at least one window');
    if (schedule.some((w) => w.from === w.to)) throw badRequest('a schedule window must not be empty (from equals to)');
    const timeZone = input.timeZone ?? 'UTC';
    if (!isTimeZone(timeZone)) throw badRequest(`unknown time zone "${timeZone}": give an IANA name such as Asia/Shanghai or UTC`);
    return {
      cameraId: input.cameraId,
      mode: input.mode,
      schedule: input.mode === 'scheduled' ? schedule : [],
      timeZone,
      enabled: input.enabled ?? true,
      backfill: input.backfill ?? before.backfill,
      backfillDefinition: input.backfillDefinition === undefined ? before.backfillDefinition : input.backfillDefinition,
    };
  };

  app.post(
    '/config',
    {
      schema: { tags, summary: 'Add a recording configuration to a channel', security, body: RecordConfigInput, response: { 200: Envelope(RecordConfigSchema), ...errors } },
    },
    async (req) => {
      await app.fleet.requireCamera(req.auth, req.body.cameraId);
      const config = { id: randomUUID(), ...checkInput(req.body) };
      await app.recordings.saveConfig(config);
      await app.recorder.reloadConfigs();
      return ok(config);
    },
  );

  app.put(
    '/config/:id',
    {
      schema: { tags, summary: 'Change a recording configuration', security, params: RecordIdParam, body: RecordConfigInput, response: { 200: Envelope(RecordConfigSchema), ...errors } },
    },
    async (req) => {
      const existing = await app.recordings.config(req.params.id);
      if (!existing) throw notFound('Recording configuration');
      await app.fleet.requireCamera(req.auth, existing.cameraId);
      await app.fleet.requireCamera(req.auth, req.body.cameraId);
      const config = { id: existing.id, ...checkInput(req.body, existing) };
      await app.recordings.saveConfig(config);
      await app.recorder.reloadConfigs();
      return ok(config);
    },
  );

  app.delete(
    '/config/:id',
    {
      schema: { tags, summary: 'Remove a recording configuration (its recordings stay)', security, params: RecordIdParam, response: { 200: Envelope(Type.Null()), ...errors } },
    },
    async (req) => {
      const existing = await app.recordings.config(req.params.id);
      if (!existing) throw notFound('Recording configuration');
      await app.fleet.requireCamera(req.auth, existing.cameraId);
      await app.recordings.deleteConfig(existing.id);
      await app.recorder.reloadConfigs();
      return ok(null);
    },
  );
};

export default routes;
