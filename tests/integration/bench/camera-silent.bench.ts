/**
 * A real RTSP camera switched off under a live viewer for a while (45 s by default), as an
 * operator would try it: how long until the viewer is told the camera is not sending (on its
 * stream, and the camera's status on STOMP), and how long after the camera is back until live
 * frames arrive again. Prints figures; not part of npm test (the test does a 2 s silence:
 * tests/integration/test/camera/camera-silent.test.ts). Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/camera-silent.bench.ts [--off-seconds=45] [--runs=1]
 *
 * The camera (scripts/rtsp-camera.py) listens on RTSP_BASE_PORT (default 22560).
 */
import { type LinkReport, type MediaListMessage, CAMERA_SILENT_REASON, dest } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { startRtspCamera } from '../../../apps/agent/test/helpers/rtsp-camera.ts';
import { StatusWatcher, signIn, startShore } from '../test/helpers/shore.ts';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const OFF_MS = arg('off-seconds', 45) * 1000;
const RUNS = arg('runs', 1);
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const mediaList = dest.mediaList('蓝海之星');
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };
const cameraState = (online: boolean) => (m: MediaListMessage) => m.sourceId === CAMERA && m.remoteRecord == null && m.status === (online ? 'ONLINE' : 'OFFLINE');

const camera = await startRtspCamera({ port: Number(process.env.RTSP_BASE_PORT ?? 22560), width: 640, height: 360, fps: 15, gopSeconds: 2 });
const shore = await startShore({ live: { lingerMs: 1_000 } });
const agent = new ShipAgent(
  { shoreUrl: shore.url, shipId: SHIP, key: await shore.app.agentKeys.issue(SHIP), cameras: [{ cameraId: CAMERA, source: camera.url, name: 'Bridge' }] },
  { current: () => report, onChange: () => () => undefined },
  { minBackoffMs: 200, maxBackoffMs: 500 },
);
agent.start();
const token = await signIn(shore.app);
const watcher = await StatusWatcher.connect(shore.port, token);
watcher.subscribe(mediaList);
await watcher.waitFor(mediaList, cameraState(true), 30_000);
const viewer = await MediaClient.open(shore.port, token);
viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA });
await viewer.until((c) => c.chunks.length > 20, 30_000, 'live frames');

for (let run = 1; run <= RUNS; run++) {
  watcher.clear();
  const events = viewer.events.length;
  const stoppedAt = Date.now();
  await camera.stop();
  const stomp = watcher.waitFor(mediaList, cameraState(false), OFF_MS).then(() => Date.now() - stoppedAt);
  await viewer.until((c) => c.events.slice(events).some((e) => e.type === 'status' && e.reason === CAMERA_SILENT_REASON), OFF_MS, 'camera not sending');
  const toldMs = Date.now() - stoppedAt;
  const stompOffMs = await stomp;
  await new Promise((r) => setTimeout(r, Math.max(0, OFF_MS - (Date.now() - stoppedAt))));
  watcher.clear();
  const chunks = viewer.chunks.length;
  const newInits = () => viewer.chunks.slice(chunks).filter((c) => c.subarray(4, 8).toString('latin1') === 'ftyp').length;
  await camera.restart(0);
  const backAt = Date.now();
  const online = watcher.waitFor(mediaList, cameraState(true), 60_000).then(() => Date.now() - backAt);
  await viewer.until((c) => c.chunks.length > chunks + 2, 60_000, 'live again');
  const liveMs = Date.now() - backAt;
  const stompOnMs = await online;
  console.log(
    `run ${run}: camera off ${OFF_MS / 1000} s — viewer told "camera not sending" after ${(toldMs / 1000).toFixed(2)} s ` +
      `(STOMP camera OFFLINE ${(stompOffMs / 1000).toFixed(2)} s); camera back — live frames after ${(liveMs / 1000).toFixed(2)} s ` +
      `(STOMP ONLINE ${(stompOnMs / 1000).toFixed(2)} s), same stream: ${newInits() === 0 ? 'yes' : `no (${newInits()} new init segments)`}, socket open: ${viewer.closed ? 'no' : 'yes'}`,
  );
}
console.log('before (the former agent, same trial): 50.7 s of frozen picture with no word, live back 16.4 s after the camera');

await viewer.close();
await watcher.close();
await agent.stop();
await shore.close();
await camera.stop();
