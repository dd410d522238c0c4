/**
 * Talkback benchmark: mouth-to-ship latency over 4G, VSAT and FleetBroadband, and what a minute of
 * talk costs the link at the chosen rate. Prints figures; not part of npm test. From the repository
 * root:
 *
 *   node --import tsx tests/integration/bench/talkback.bench.ts [--links=FOURTHG,VSAT,FBB] [--rounds=3] [--seconds=6]
 *
 * Everything runs here: a shore server (embedded database), ship S1001's agent behind a LinkShaper
 * (steady profiles: no jitter, no outages), and a talk client on a raw media socket doing what the
 * browser does — talk.start, then three 60 ms Opus packets (12 kbit/s VoIP, made by ffmpeg's
 * libopus here, by WebCodecs in the browser) per message every 180 ms, in real time.
 *
 * Latency: from a message leaving the client to the agent's speaker (ShipSpeaker) having received
 * the PCM of all of it — the first message (shore's checks, the stream opening, the decoder starting
 * on the ship) and every later one; and mouth to ship per packet, from the end of its 60 ms of speech
 * (so the 180 ms a message waits for its three packets counts) to its PCM at the speaker. Bytes: a minute of Opus (a tone, and pink
 * noise as the hard case), and on the link with the 5-byte frame header and WebSocket framing
 * (shore's link-bytes counter, purpose talk) plus the talk's control messages.
 */
import { performance } from 'node:perf_hooks';
import { type LinkReport } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras, LinkShaper, PROFILES, type LinkProfile, withOverrides } from '@ship-cctv/simulator';
import { SPEAKER_RATE } from '../../../apps/agent/src/talk/pcm-decoder.ts';
import { scrapeMetrics, signIn, startShore } from '../test/helpers/shore.ts';
import { TalkClient } from '../test/helpers/talk-client.ts';
import { opusPackets } from '../../../apps/agent/test/talk/opus-fixture.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readOggPackets } from '../../../apps/agent/src/talk/ogg-reader.ts';

const argv = process.argv.slice(2);
const argOf = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ROUNDS = Math.max(1, Number(argOf('rounds') ?? 3));
const SECONDS = Math.max(2, Number(argOf('seconds') ?? 6));
const LINKS = (argOf('links') ?? 'FOURTHG,VSAT,FBB').split(',').filter((l): l is 'FOURTHG' | 'VSAT' | 'FBB' => ['FOURTHG', 'VSAT', 'FBB'].includes(l));
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const PER_MESSAGE = 3;
const MESSAGE_MS = PER_MESSAGE * 60;
/** PCM samples (16 kHz) one 60 ms packet holds. */
const PACKET_SAMPLES = (60 * SPEAKER_RATE) / 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const run = promisify(execFile);

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

async function pinkNoisePackets(seconds: number): Promise<Uint8Array[]> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.3:sample_rate=48000:duration=${seconds}`, '-ac', '1', '-c:a', 'libopus', '-b:a', '12k', '-application', 'voip', '-frame_duration', '60', '-f', 'ogg', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return readOggPackets(new Uint8Array(stdout)).packets.slice(2);
}

async function main(): Promise<void> {
  const shore = await startShore();
  const key = await shore.app.agentKeys.issue(SHIP);
  const token = await signIn(shore.app);
  const steady = (p: LinkProfile): LinkProfile => withOverrides(p, { jitterMs: 0, outages: undefined });
  const shaper = new LinkShaper({ profile: steady(PROFILES.FOURTHG), target: { port: shore.port } });
  await shaper.listen();
  let report: LinkReport = { linkType: 'FOURTHG', quality: 80, duplex: 'BOTH' };
  let heard = 0;
  let onHeard: (() => void) | undefined;
  const agent = new ShipAgent(
    { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
    { current: () => report, onChange: () => () => undefined },
    { cameraKinds: [syntheticCameras()],
      minBackoffMs: 200,
      maxBackoffMs: 1_000,
      talk: {
        speaker: {
          play: (_cameraId, pcm) => {
            heard += pcm.length;
            onHeard?.();
          },
        },
      },
    },
  );
  agent.start();
  while (!shore.app.agents.get(SHIP)?.capabilities.has('talk')) await sleep(50);
  const talkBytes = async () => Number(/shipcctv_link_bytes_total\{[^}]*direction="down"[^}]*purpose="talk"[^}]*\} (\d+)/.exec(await scrapeMetrics(shore.app))?.[1] ?? 0);

  const tone = await opusPackets(60);
  console.log(`talkback benchmark: Opus 12 kbit/s VoIP, 60 ms frames, ${PER_MESSAGE} per message; ${ROUNDS} talks of ${SECONDS} s per link`);
  try {
    for (const name of LINKS) {
      shaper.setProfile(steady(PROFILES[name]));
      report = { linkType: name, quality: 80, duplex: 'BOTH' };
      await sleep(1_000);
      const first: number[] = [];
      const later: number[] = [];
      const mouth: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        heard = 0;
        const sentAt: number[] = [];
        /** When the speaker had packet j's samples (all of them, less the decoder's 6.5 ms pre-skip). */
        const packetAt: number[] = [];
        onHeard = () => {
          const now = performance.now();
          while (packetAt.length < sentAt.length * PER_MESSAGE && heard >= (packetAt.length + 1) * PACKET_SAMPLES - 104) packetAt.push(now);
        };
        while (!shore.app.agents.get(SHIP)?.capabilities.has('talk')) await sleep(50);
        const client = await TalkClient.open(shore.port, token);
        const messages = Math.floor((SECONDS * 1000) / MESSAGE_MS);
        const start = performance.now();
        client.start(CAMERA);
        for (let k = 0; k < messages; k++) {
          // In real time: message k leaves when its last packet has been spoken.
          const due = start + k * MESSAGE_MS;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
          sentAt.push(performance.now());
          client.sendPackets(tone.slice(k * PER_MESSAGE, (k + 1) * PER_MESSAGE));
        }
        const deadline = performance.now() + 15_000;
        while (packetAt.length < (messages - 1) * PER_MESSAGE && performance.now() < deadline) await sleep(20);
        const ended = new Promise((resolve) => agent.talk.once('ended', resolve));
        client.stop();
        const over = await client.waitFor('talk.ended').catch((err: unknown) => err);
        if (over instanceof Error) console.log(`    ${name} round ${round + 1}: ${over.message}`);
        else await ended;
        for (let k = 0; k < messages - 1; k++) {
          const sent = sentAt[k] ?? 0;
          // A message is heard when its last packet is.
          const whole = packetAt[(k + 1) * PER_MESSAGE - 1];
          if (whole !== undefined) (k === 0 ? first : later).push(whole - sent);
          // Mouth to ship: packet j was spoken by (message sent − 180 ms + (j + 1) × 60 ms).
          for (let j = 0; j < PER_MESSAGE; j++) {
            const at = packetAt[k * PER_MESSAGE + j];
            if (at !== undefined) mouth.push(at - (sent - MESSAGE_MS + (j + 1) * 60));
          }
        }
        await sleep(500);
      }
      console.log(
        `  ${name.padEnd(8)} (one way ${PROFILES[name].oneWayDelayMs} ms, down ${PROFILES[name].downKbps} kbit/s): ` +
          `first message sent → heard ${first.map((x) => x.toFixed(0)).join('/')} ms; later messages median ${quantile(later, 0.5).toFixed(0)} ms, p95 ${quantile(later, 0.95).toFixed(0)} ms; ` +
          `mouth to ship per packet median ${quantile(mouth, 0.5).toFixed(0)} ms, p95 ${quantile(mouth, 0.95).toFixed(0)} ms (${mouth.length} packets)`,
      );
    }

    // A minute of talk: Opus bytes and link bytes (sent at once: the count does not depend on pacing).
    shaper.setProfile(steady(PROFILES.FOURTHG));
    for (const [label, packets] of [['tone', tone] as const, ['pink noise', await pinkNoisePackets(60)] as const]) {
      const before = await talkBytes();
      const client = await TalkClient.open(shore.port, token);
      client.start(CAMERA);
      await client.waitFor('talk.started');
      let packed = 0;
      for (let k = 0; k < packets.length; k += PER_MESSAGE) packed += client.sendPackets(packets.slice(k, k + PER_MESSAGE));
      await sleep(2_000);
      const ended = new Promise((resolve) => agent.talk.once('ended', resolve));
      client.stop();
      await client.waitFor('talk.ended');
      await ended;
      const onLink = (await talkBytes()) - before;
      const opus = packets.reduce((n, p) => n + p.length, 0);
      const minutes = (packets.length * 60) / 60_000;
      console.log(
        `  a minute of ${label}: Opus ${(opus / minutes / 1000).toFixed(1)} KB, packed ${(packed / minutes / 1000).toFixed(1)} KB, ` +
          `on the link ${(onLink / minutes / 1000).toFixed(1)} KB (framing +${(((onLink - opus) / opus) * 100).toFixed(1)} %)`,
      );
    }
  } finally {
    onHeard = undefined;
    await agent.stop();
    await shaper.close();
    await shore.close();
  }
}

await main();
