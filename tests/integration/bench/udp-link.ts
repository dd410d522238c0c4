/**
 * The WebRTC peer's emulated link in the live-video benchmark: a UDP relay in front of one of
 * Janus's ICE candidates that holds every datagram for the link profile's one-way delay with its
 * jitter (sampleDelayMs, as the LinkShaper does for the product's TCP link), keeping their order,
 * in both directions. The page offers the browser the relay's address in place of Janus's; the
 * browser's checks reach Janus from the relay, which Janus learns as a peer-reflexive candidate.
 * No loss and no bandwidth limit: the 4G profile has neither at these rates (350 kbit/s on 10 Mbit/s).
 */
import { type Socket, createSocket } from 'node:dgram';
import { type LinkProfile, type RandomSource, sampleDelayMs } from '@ship-cctv/simulator';

export interface UdpLinkRelay {
  port: number;
  /** Datagrams relayed so far, per direction (up: browser → Janus). */
  readonly relayed: { up: number; down: number };
  close(): void;
}

/** Delivers datagrams after the link's delay, never before the one sent ahead of it. */
function delayedLane(profile: LinkProfile, random: RandomSource, deliver: (msg: Buffer) => void): (msg: Buffer) => void {
  let lastDue = 0;
  return (msg) => {
    const due = Math.max(performance.now() + sampleDelayMs(profile, random), lastDue);
    lastDue = due;
    setTimeout(() => deliver(msg), Math.max(0, due - performance.now()));
  };
}

/** A relay on `host` (an ephemeral port) to `target`, one browser at a time. */
export async function startUdpLinkRelay(host: string, target: { host: string; port: number }, profile: LinkProfile, random: RandomSource): Promise<UdpLinkRelay> {
  const family = host.includes(':') ? 'udp6' : 'udp4';
  const facingBrowser: Socket = createSocket(family);
  const facingJanus: Socket = createSocket(family);
  let browser: { address: string; port: number } | undefined;
  const relayed = { up: 0, down: 0 };
  const up = delayedLane(profile, random, (msg) => facingJanus.send(msg, target.port, target.host));
  const down = delayedLane(profile, random, (msg) => {
    if (browser) facingBrowser.send(msg, browser.port, browser.address);
  });
  facingBrowser.on('message', (msg, from) => {
    browser = { address: from.address, port: from.port };
    relayed.up++;
    up(msg);
  });
  facingJanus.on('message', (msg) => {
    relayed.down++;
    down(msg);
  });
  for (const s of [facingBrowser, facingJanus]) s.on('error', () => undefined);
  await new Promise<void>((r) => facingBrowser.bind(0, host, r));
  await new Promise<void>((r) => facingJanus.bind(0, host, r));
  return {
    port: facingBrowser.address().port,
    relayed,
    close() {
      facingBrowser.close();
      facingJanus.close();
    },
  };
}
