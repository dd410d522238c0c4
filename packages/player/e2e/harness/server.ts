/**
 * Test server for the player's browser specs: serves a page with the player bundled on the fly and
 * speaks the media socket protocol, with a real ffmpeg per stream. Run by playwright.config.ts:
 *   node --import tsx e2e/harness/server.ts        (PORT, default 18190)
 *
 * The camera id picks the behaviour: `av1-*` sends AV1 to a viewer that says it decodes it, `unsupported-*` announces a codec no browser here plays,
 * `silent-*` never sends a frame, `relay-*` join one shared encoder (with the frames since the last
 * keyframe kept for newcomers), `bframes-*` sends H.264 Main with 2 B-frames, anything else gets its own ffmpeg at 640×360. POST /control
 * ?cameraId=&action=switch|close changes definition or drops the socket; GET /control/log
 * ?cameraId= lists the play commands received (to check what a reconnect re-sent).
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type WebSocket, WebSocketServer } from 'ws';
import { PATHS, type MediaClientMessage, type MediaServerMessage, type PlayCommand } from '@ship-cctv/protocol';
import { type EncodeSize, encoderArgs } from './encoder.ts';
import { Fmp4Splitter, mimeFor } from '@ship-cctv/media';
import { HARNESS_TOKEN } from './constants.ts';

const PORT = Number(process.env.PORT ?? 18190);
const PAGE_ENTRY = fileURLToPath(new URL('./page.ts', import.meta.url));
const FULL: EncodeSize = { width: 640, height: 360 };
const LOW: EncodeSize = { width: 320, height: 180 };

interface Encoder {
  /** Kills ffmpeg; resolves once it has exited (and been reaped). */
  stop(): Promise<void>;
}

interface Stream {
  ws: WebSocket;
  command: PlayCommand;
  encoder?: Encoder;
}

/** The socket currently playing each camera id (each spec uses its own ids). */
const streams = new Map<string, Stream>();
const received = new Map<string, { commands: PlayCommand[]; tokens: Array<string | null> }>();

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>player harness</title></head>
<body style="margin:0;background:#000">
<video id="video" width="640" height="360"></video>
<script type="module" src="/player.js"></script>
</body></html>`;

function send(ws: WebSocket, message: MediaServerMessage): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

function stopEncoder(stream: Stream): Promise<void> {
  const stopped = stream.encoder?.stop() ?? Promise.resolve();
  stream.encoder = undefined;
  return stopped;
}

interface Codec {
  mime: string;
  width: number;
  height: number;
}

/** Runs ffmpeg and hands on its output cut into init segments and fragments. */
function spawnEncoder(
  size: EncodeSize,
  on: { init(codec: Codec, bytes: Uint8Array): void; media(bytes: Uint8Array, keyframe: boolean): void; failed(message: string): void },
): Encoder {
  const child = spawn('ffmpeg', encoderArgs(size), { stdio: ['ignore', 'pipe', 'pipe'] });
  const splitter = new Fmp4Splitter();
  let stderrTail = '';
  let killed = false;
  child.stderr.on('data', (d: Buffer) => (stderrTail = (stderrTail + d.toString()).slice(-2000)));
  child.stdout.on('data', (chunk: Buffer) => {
    if (killed) return;
    // The same splitter the shore relay uses: init segments and whole fragments, keyframes marked.
    for (const unit of splitter.push(chunk)) {
      if (unit.kind === 'fragment') on.media(unit.data, unit.keyframe);
      else if (unit.kind === 'init') on.init({ mime: mimeFor(unit), width: unit.width, height: unit.height }, unit.data);
    }
  });
  child.on('exit', (code, signal) => {
    if (killed) return;
    console.error(`harness: ffmpeg exited (${code ?? signal}): ${stderrTail}`);
    on.failed('encoder exited');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    stop() {
      killed = true;
      child.kill('SIGKILL');
      return exited;
    },
  };
}

function startEncoder(stream: Stream, size: EncodeSize, templateId: number): void {
  void stopEncoder(stream);
  let playing = false;
  stream.encoder = spawnEncoder(size, {
    init(codec, bytes) {
      send(stream.ws, { type: 'codec', ...codec, frameRate: size.fps ?? 15, templateId });
      stream.ws.send(bytes);
    },
    media(bytes) {
      stream.ws.send(bytes);
      if (!playing) send(stream.ws, { type: 'status', state: 'playing' });
      playing = true;
    },
    failed(message) {
      send(stream.ws, { type: 'error', code: 'startFailed', message });
      stream.ws.close(1011);
    },
  });
}

/**
 * One always-on encoder shared by the `relay-*` cameras. Like the shore server's relay it keeps the
 * init segment and the frames since the last keyframe, so a new viewer gets a decodable picture at
 * once instead of waiting for an encoder to start: what first-frame time looks like in production.
 */
const relay = {
  encoder: undefined as Encoder | undefined,
  codec: undefined as Codec | undefined,
  init: undefined as Uint8Array | undefined,
  gop: [] as Uint8Array[],
  viewers: new Set<WebSocket>(),
};

function sendRelayStart(ws: WebSocket): void {
  if (!relay.codec || !relay.init) return;
  send(ws, { type: 'codec', ...relay.codec, frameRate: 15, templateId: 6 });
  ws.send(relay.init);
  for (const fragment of relay.gop) ws.send(fragment);
  if (relay.gop.length > 0) send(ws, { type: 'status', state: 'playing' });
}

function joinRelay(ws: WebSocket): void {
  relay.encoder ??= spawnEncoder(FULL, {
    init(codec, bytes) {
      relay.codec = codec;
      relay.init = bytes;
      relay.gop = [];
      for (const viewer of relay.viewers) sendRelayStart(viewer);
    },
    media(bytes, keyframe) {
      if (keyframe) relay.gop = [];
      const first = relay.gop.length === 0 && relay.init !== undefined;
      relay.gop.push(bytes);
      for (const viewer of relay.viewers) {
        if (viewer.readyState !== viewer.OPEN) continue;
        viewer.send(bytes);
        if (first) send(viewer, { type: 'status', state: 'playing' });
      }
    },
    failed() {
      relay.encoder = undefined;
      for (const viewer of relay.viewers) viewer.close(1011);
    },
  });
  sendRelayStart(ws);
  relay.viewers.add(ws);
  ws.on('close', () => relay.viewers.delete(ws));
}

function onPlay(ws: WebSocket, command: PlayCommand, token: string | null): void {
  const log = received.get(command.cameraId) ?? { commands: [], tokens: [] };
  received.set(command.cameraId, log);
  log.commands.push(command);
  log.tokens.push(token);
  if (token !== HARNESS_TOKEN) {
    send(ws, { type: 'error', code: 'unauthorized', message: 'bad token' });
    ws.close(4401);
    return;
  }
  const stream: Stream = { ws, command };
  streams.set(command.cameraId, stream);
  ws.on('close', () => {
    void stopEncoder(stream);
    if (streams.get(command.cameraId) === stream) streams.delete(command.cameraId);
  });
  send(ws, { type: 'status', state: 'starting', waitSeconds: 1 });
  if (command.cameraId.startsWith('unsupported-')) {
    // MPEG-4 Part 2, as some older ship cameras send: Chromium's MSE has no decoder for it.
    send(ws, { type: 'codec', mime: 'video/mp4; codecs="mp4v.20.9"', width: 640, height: 360, frameRate: 15, templateId: 6 });
  } else if (command.cameraId.startsWith('relay-')) {
    joinRelay(ws);
  } else if (command.cameraId.startsWith('bframes-')) {
    startEncoder(stream, { ...FULL, bframes: 2 }, command.templateId ?? 6);
  } else if (command.cameraId.startsWith('av1-')) {
    // As shore does: AV1 only to a viewer whose play says it decodes it.
    if (command.decoders?.includes('av01')) startEncoder(stream, { width: 320, height: 180, fps: 10, av1: true }, command.templateId ?? 12);
    else send(ws, { type: 'error', code: 'startFailed', message: 'this viewer did not say it decodes av01' });
  } else if (command.cameraId.startsWith('av-')) {
    startEncoder(stream, { ...FULL, audio: true }, command.templateId ?? 6);
  } else if (!command.cameraId.startsWith('silent-')) {
    startEncoder(stream, FULL, command.templateId ?? 6);
  }
}

const wss = new WebSocketServer({ noServer: true });
wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
  const token = new URL(req.url ?? '/', 'http://harness').searchParams.get('token');
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    let message: MediaClientMessage;
    try {
      message = JSON.parse(data.toString()) as MediaClientMessage;
    } catch {
      return;
    }
    if (message.type === 'play' && message.mode === 'live') onPlay(ws, message, token);
    else if (message.type === 'stop') ws.close(1000);
  });
});

async function bundle(): Promise<string> {
  // Bundled per request: a changed player shows up on the next page load.
  const result = await build({
    entryPoints: [PAGE_ENTRY],
    bundle: true,
    format: 'esm',
    write: false,
    target: 'chrome120',
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

function control(url: URL, res: ServerResponse): void {
  const stream = streams.get(url.searchParams.get('cameraId') ?? '');
  if (!stream) return void res.writeHead(404).end('no such stream');
  const action = url.searchParams.get('action');
  if (action === 'switch') {
    // What the shore server does when the link cannot carry the stream: lowest definition.
    send(stream.ws, { type: 'notice', code: 'lowestDefinition', templateId: 1 });
    startEncoder(stream, LOW, 1);
  } else if (action === 'close') {
    stream.ws.close(1001, 'harness closed the socket');
  } else {
    return void res.writeHead(400).end('unknown action');
  }
  res.writeHead(204).end();
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://harness');
  if (req.method === 'GET' && url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  } else if (req.method === 'GET' && url.pathname === '/player.js') {
    bundle().then(
      (js) => res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(js),
      (err: unknown) => res.writeHead(500).end(String(err)),
    );
  } else if (req.method === 'GET' && url.pathname === '/healthz') {
    res.writeHead(200).end('ok');
  } else if (req.method === 'POST' && url.pathname === '/control') {
    control(url, res);
  } else if (req.method === 'GET' && url.pathname === '/control/log') {
    const log = received.get(url.searchParams.get('cameraId') ?? '') ?? { commands: [], tokens: [] };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(log));
  } else {
    res.writeHead(404).end();
  }
});

server.on('upgrade', (req, socket, head) => {
  if (new URL(req.url ?? '/', 'http://harness').pathname !== PATHS.media) return void socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
});

server.listen(PORT, '127.0.0.1', () => console.log(`player harness on http://127.0.0.1:${PORT}`));

function shutdown(): void {
  const stopped = [...streams.values()].map(stopEncoder);
  if (relay.encoder) stopped.push(relay.encoder.stop());
  for (const ws of wss.clients) ws.terminate();
  server.close();
  // Exit once every ffmpeg is reaped, so none is left behind as a zombie.
  void Promise.all(stopped).then(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
