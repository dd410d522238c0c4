import { parentPort, workerData } from 'node:worker_threads';
import { type Detector, loadDetector } from './detector.ts';

/**
 * The detector in a worker thread: a detection is ~0.3–0.4 s of CPU on this machine's cores, which
 * on the agent's own thread would hold up everything else it does (live video, the recorder, the
 * link) for that long. Messages: in { id, rgb, width, height }; out { ready } or { failed, reason }
 * once, then { id, detections } or { id, error } per detection.
 */
const port = parentPort;
if (port) {
  let detector: Detector | undefined;
  try {
    detector = await loadDetector((workerData as { dir?: string } | undefined)?.dir);
    port.postMessage({ ready: true });
  } catch (err) {
    port.postMessage({ failed: true, reason: (err as Error).message });
  }
  port.on('message', (m: { id: number; rgb: Uint8Array; width: number; height: number }) => {
    if (!detector) return port.postMessage({ id: m.id, error: 'the detector did not load' });
    detector.detect(m.rgb, m.width, m.height).then(
      (detections) => port.postMessage({ id: m.id, detections }),
      (err: Error) => port.postMessage({ id: m.id, error: err.message }),
    );
  });
}
