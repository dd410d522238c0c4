/**
 * The live-video benchmark's WebRTC peer: Debian's Janus WebRTC gateway (package `janus`, installed
 * by `node scripts/setup.mjs --for=bench`), with only its streaming plugin and HTTP transport, on
 * 127.0.0.1. The page (janus-viewer.ts) makes an RTSP mountpoint of the same camera the ship reads
 * and watches it, so WebRTC and the product show the same encoder's pictures. Never part of the
 * product or of npm test.
 *
 * Ports: HTTP API on `httpPort`; WebRTC media (ICE) and the RTSP client's RTP from `mediaPorts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const JANUS_BINARY = '/usr/bin/janus';
const JANUS_LIBS = '/usr/lib/x86_64-linux-gnu/janus';

export interface JanusOptions {
  httpPort: number;
  /** ICE (WebRTC media) ports, e.g. [18700, 18759]. */
  icePorts: [number, number];
  /** Where the streaming plugin receives the cameras' RTP (its RTSP client), e.g. [18760, 18799]. */
  rtpPorts: [number, number];
}

export interface JanusPeer {
  /** The HTTP API's base, e.g. http://127.0.0.1:18610/janus */
  apiUrl: string;
  stop(): Promise<void>;
}

/** Why Janus cannot run here, or undefined when it can. */
export function janusMissing(): string | undefined {
  if (!existsSync(JANUS_BINARY) || !existsSync(join(JANUS_LIBS, 'plugins/libjanus_streaming.so'))) {
    return 'the WebRTC peer needs Debian\'s janus package: run `node scripts/setup.mjs --for=bench` as root (or `sudo apt-get install -y janus`)';
  }
  return undefined;
}

/** libconfig text (Janus's .jcfg) of one section of string, number and boolean settings. */
function section(name: string, settings: Record<string, string | number | boolean>): string {
  const lines = Object.entries(settings).map(([k, v]) => `  ${k} = ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
  return `${name}: {\n${lines.join('\n')}\n}\n`;
}

export async function startJanus(opts: JanusOptions): Promise<JanusPeer> {
  const missing = janusMissing();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'bench-janus-'));
  // Only the streaming plugin and the HTTP transport: folders of their own holding just those.
  for (const [folder, lib] of [
    ['plugins', 'plugins/libjanus_streaming.so'],
    ['transports', 'transports/libjanus_http.so'],
  ] as const) {
    mkdirSync(join(dir, folder));
    symlinkSync(join(JANUS_LIBS, lib), join(dir, folder, lib.split('/')[1] ?? lib));
  }
  mkdirSync(join(dir, 'events'));
  mkdirSync(join(dir, 'loggers'));
  writeFileSync(
    join(dir, 'janus.jcfg'),
    section('general', {
      configs_folder: dir,
      plugins_folder: join(dir, 'plugins'),
      transports_folder: join(dir, 'transports'),
      events_folder: join(dir, 'events'),
      loggers_folder: join(dir, 'loggers'),
      debug_level: 3,
      server_name: 'ship-cctv-bench',
      session_timeout: 60,
    }) +
      section('media', { rtp_port_range: `${opts.icePorts[0]}-${opts.icePorts[1]}` }) +
      section('nat', { ice_ignore_list: 'vmnet', full_trickle: false }),
  );
  writeFileSync(join(dir, 'janus.transport.http.jcfg'), section('general', { json: 'plain', base_path: '/janus', http: true, port: opts.httpPort, ip: '127.0.0.1', https: false }) + section('admin', { admin_http: false }));
  writeFileSync(join(dir, 'janus.plugin.streaming.jcfg'), section('general', { rtp_port_range: `${opts.rtpPorts[0]}-${opts.rtpPorts[1]}` }));

  const child: ChildProcess = spawn(JANUS_BINARY, ['-F', dir, '-C', join(dir, 'janus.jcfg'), '-o'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const apiUrl = `http://127.0.0.1:${opts.httpPort}/janus`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const hard = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await gone;
      clearTimeout(hard);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`Janus exited with ${child.exitCode} at start:\n${log}`);
    }
    const ok = await fetch(`${apiUrl}/info`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Janus did not answer on ${apiUrl} within 15 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { apiUrl, stop };
}
