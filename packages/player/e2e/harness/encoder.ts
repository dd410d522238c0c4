/**
 * The test camera: ffmpeg's testsrc2 encoded the way the ship agents encode (libx264 baseline,
 * zerolatency, 1 s GOP, a fragment per frame). A strip at the top carries the capture wall clock
 * (ms mod 2^24, one black/white block per bit) so the page can measure capture-to-screen latency.
 */
export const CLOCK_BITS = 24;
/** Height of the clock strip as a fraction of the picture. */
export const CLOCK_STRIP = 1 / 12;

export interface EncodeSize {
  width: number;
  height: number;
  fps?: number;
  /** A 440 Hz tone as an AAC track beside the picture (a camera with a microphone). */
  audio?: boolean;
  /** B-frames between references (Main profile, pictures out of presentation order), as many IP cameras send. */
  bframes?: number;
  /** AV1 (SVT-AV1, low delay, as the agent encodes the satellite tier) instead of H.264. */
  av1?: boolean;
}

/** The capture clock: stamp each frame with RTCTIME (µs) as its pts, draw the bits, renumber. */
export function clockFilter(fps: number): string {
  const strip = `h=ih*${CLOCK_STRIP}`;
  const bits = Array.from(
    { length: CLOCK_BITS },
    (_, i) =>
      `drawbox=x=${i}*iw/${CLOCK_BITS}:y=0:w=iw/${CLOCK_BITS}:${strip}:color=white:t=fill:` +
      `enable='mod(floor((t*1000+0.5)/${2 ** i}),2)'`,
  );
  return [
    'settb=1/1000',
    'setpts=RTCTIME/1000',
    `drawbox=x=0:y=0:w=iw:${strip}:color=black:t=fill`,
    ...bits,
    // Back to plain frame numbers, so the stream's timestamps start at 0 as a camera's would.
    `settb=1/${fps}`,
    'setpts=N',
  ].join(',');
}

export function encoderArgs({ width, height, fps = 15, audio = false, bframes = 0, av1 = false }: EncodeSize): string[] {
  return [
    ['-hide_banner', '-loglevel', 'error', '-nostdin'],
    ['-re', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}`],
    audio ? ['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'] : [],
    ['-vf', clockFilter(fps)],
    av1
      ? // The agent's SVT-AV1 settings (low delay, CBR, one thread) at its fastest preset, to keep up live here.
        ['-c:v', 'libsvtav1', '-preset', '12', '-svtav1-params', 'pred-struct=1:rc=2:lp=1:scd=0', '-pix_fmt', 'yuv420p']
      : bframes > 0
      ? // ultrafast and zerolatency turn B-frames off.
        ['-c:v', 'libx264', '-preset', 'superfast', '-bf', String(bframes), '-x264-params', 'b-adapt=0', '-profile:v', 'main', '-pix_fmt', 'yuv420p']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p'],
    av1 ? ['-g', String(fps), '-b:v', '200k', '-flags:v', '+global_header'] : ['-g', String(fps), '-keyint_min', String(fps), '-sc_threshold', '0', '-b:v', '400k', '-flags:v', '+global_header'],
    audio ? ['-map', '0:v', '-map', '1:a', '-c:a', 'aac', '-b:a', '64k', '-ac', '2'] : ['-an'],
    ['-f', 'mp4', '-movflags', '+frag_every_frame+empty_moov+default_base_moof', 'pipe:1'],
  ].flat();
}
