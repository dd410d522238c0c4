/**
 * One enhancement, in a process of its own (forked by enhance-service.ts) so the server's event
 * loop never waits on the model: reads the picture, upscales it tile by tile, writes the JPEG,
 * and tells the parent its progress. The parent cancels by killing it; a parent that dies takes
 * it along (parent-watch.ts).
 *
 * Messages: in `{ input, output, scale }`; out `{ progress, done, total }`, `{ finished, width,
 * height, bytes }` or `{ failed }`.
 */
import { renameSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { type Scale, loadModel, upscale } from './esrgan.ts';
import { exitWithParent } from './parent-watch.ts';

interface Request {
  input: string;
  output: string;
  scale: Scale;
}

const send = (message: object) => process.send?.(message);
// A killed server must not leave its enhancement running (a restart would run it again beside it).
const parent = exitWithParent();

process.once('message', (req: Request) => {
  void (async () => {
    const { data, info } = await sharp(req.input).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const model = await loadModel(req.scale);
    send({ progress: 0, done: 0, total: 1 });
    const out = upscale(model, req.scale, new Uint8Array(data.buffer, data.byteOffset, data.byteLength), info.width, info.height, {
      onTile: (done, total) => send({ progress: Math.floor((100 * done) / total), done, total }),
      // Checked before each tile: the tiles run without a break in which the channel could close.
      stopped: () => !parent.alive(),
    });
    if (!out) throw new Error('stopped');
    const width = info.width * req.scale;
    const height = info.height * req.scale;
    const jpeg = await sharp(Buffer.from(out.buffer, out.byteOffset, out.byteLength), { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
    writeFileSync(`${req.output}.tmp`, jpeg);
    renameSync(`${req.output}.tmp`, req.output);
    send({ finished: true, width, height, bytes: jpeg.length });
  })()
    .catch((err: unknown) => send({ failed: err instanceof Error ? err.message : String(err) }))
    .finally(() => process.disconnect?.());
});
