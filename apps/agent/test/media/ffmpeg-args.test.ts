import { describe, expect, it } from 'vitest';
import { canCopy, keyframeSeconds, pictureKbps, sessionTranscodeArgs, urlCameraArgs, urlCameraFrameRate, urlKind, videoEncodeArgs } from '../../src/media/ffmpeg-args.ts';
import { chain, filter, quote } from '../../src/media/filtergraph.ts';
import { spec } from './helpers.ts';

const GLOBAL = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error'];
const h264 = (fps: string, rate: string) => [
  '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p',
  '-g', fps, '-keyint_min', fps, '-sc_threshold', '0', '-b:v', rate, '-maxrate', rate, '-bufsize', rate,
  '-flags:v', '+global_header',
];
const FMP4 = ['-f', 'mp4', '-movflags', '+frag_every_frame+empty_moov+default_base_moof', '-flush_packets', '1', 'pipe:1'];
const FLV = ['-f', 'flv', '-flvflags', 'no_duration_filesize', '-flush_packets', '1', 'pipe:1'];
describe('filtergraph text', () => {
  it('quotes values and arguments only when a parser level would split them', () => {
    expect(quote("it's")).toBe("'it'\\''s'");
    expect(filter('fps', { fps: 15 })).toBe('fps=fps=15');
    expect(filter('realtime')).toBe('realtime');
    expect(filter('x', { a: 'b:c' })).toBe("x='a='\\''b:c'\\'''");
    expect(filter('geq', { lum: 'if(a,b,c)', cb: 128 })).toBe("geq='lum=if(a,b,c):cb=128'");
    expect(filter('x', { a: undefined, b: 1 })).toBe('x=b=1');
    expect(chain(['a', 'b'], ['f1', 'f2'], ['c'])).toBe('[a][b]f1,f2[c]');
  });
});

describe('urlCameraArgs', () => {
  const TRANSCODE_640 = [
    '-vf', "select='expr=st(0,max(ld(0),key))',scale=w=640:h=360:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=w=640:h=360:x=(ow-iw)/2:y=(oh-ih)/2,setsar=sar=1,fps=fps=15",
    ...h264('15', '400k'),
  ];
  const RTSP_IN = ['-rtsp_transport', 'tcp', '-timeout', '5000000', '-fflags', 'nobuffer', '-analyzeduration', '1000000'];
  // Decoding only: a picture's slices in several packets make one picture (see urlCameraArgs), and
  // slice threads, which hold no picture back (frame threads hold one per extra thread).
  const DECODE = ['-flags2', '+chunks', '-thread_type', 'slice'];

  it('transcodes an H.265 RTSP camera into the template, over TCP with a socket time-out', () => {
    const url = 'rtsp://admin:pw@10.0.0.5:554/stream1';
    const args = urlCameraArgs({ url, encode: spec(640, 360, 15, 400), probe: { codec: 'hevc', width: 640, height: 360, frameRate: 15 } });
    // At the template's 15 fps already: no frame-rate filter.
    const sameRate = TRANSCODE_640.map((a) => a.replace(',fps=fps=15', ''));
    expect(args).toEqual([...GLOBAL, ...RTSP_IN, ...DECODE, '-i', url, '-map', '0:v:0', '-an', '-sn', '-dn', ...sameRate, ...FMP4]);
    expect(args).not.toContain('low_delay');
  });

  it('copies an RTSP camera that already fits the template', () => {
    const url = 'rtsp://10.0.0.5/s';
    const args = urlCameraArgs({ url, encode: spec(640, 360, 15, 400), probe: { codec: 'h264', width: 640, height: 360, frameRate: 15, pixFmt: 'yuvj420p' } });
    expect(args).toEqual([...GLOBAL, ...RTSP_IN, '-i', url, '-map', '0:v:0', '-an', '-sn', '-dn', '-c:v', 'copy', ...FMP4]);
  });

  it('plays a local file as a looping live camera', () => {
    const args = urlCameraArgs({ url: '/srv/cams/deck.mp4', encode: spec(320, 180, 10, 200), probe: { codec: 'h264', width: 320, height: 180, frameRate: 10 }, durationSeconds: 2 });
    expect(args).toEqual([...GLOBAL, '-re', '-stream_loop', '-1', '-i', '/srv/cams/deck.mp4', '-t', '2', '-map', '0:v:0', '-an', '-sn', '-dn', '-c:v', 'copy', ...FMP4]);
  });

  it('transcodes when nothing is known about the input', () => {
    const args = urlCameraArgs({ url: 'udp://239.0.0.1:5000', encode: spec(640, 360, 15, 400) });
    expect(args).toEqual([
      ...GLOBAL, '-fflags', 'nobuffer', '-analyzeduration', '1000000', ...DECODE,
      '-i', 'udp://239.0.0.1:5000', '-map', '0:v:0', '-an', '-sn', '-dn', ...TRANSCODE_640, ...FMP4,
    ]);
  });

  it('leaves out the frame-rate filter (a picture held until the next) for a camera at the template’s rate or faster', () => {
    const encode = spec(640, 360, 15, 400);
    const hd = { codec: 'h264', width: 1280, height: 720 };
    const vf = (args: string[]) => args[args.indexOf('-vf') + 1] ?? '';
    expect(vf(urlCameraArgs({ url: 'rtsp://10.0.0.5/s', encode, probe: { ...hd, frameRate: 15.02 } }))).not.toContain('fps=');
    // Faster: thinned out before scaling, nothing held; the output's -r gives the encoder the template's rate.
    const faster = urlCameraArgs({ url: 'rtsp://10.0.0.5/s', encode, probe: { ...hd, frameRate: 25 } });
    expect(vf(faster)).not.toContain('fps=');
    expect(vf(faster)).toMatch(/^select='expr=st\(0,max\(ld\(0\),key\)\)',select='expr=isnan\(prev_selected_t\)\+gte\(floor\(t\*15\),floor\(prev_selected_t\*15\)\+1\)',scale=/);
    expect(faster.slice(faster.indexOf('-vf') + 2, faster.indexOf('-vf') + 4)).toEqual(['-r', '15']);
    // Slower: the frame-rate filter repeats pictures up to the template's rate.
    expect(vf(urlCameraArgs({ url: 'rtsp://10.0.0.5/s', encode, probe: { ...hd, frameRate: 10 } }))).toContain('fps=fps=15');
    expect(urlCameraArgs({ url: 'rtsp://10.0.0.5/s', encode, probe: { ...hd, frameRate: 10 } })).not.toContain('-r');
    // A camera session's pictures: slice threads before the input, the rate filter only when the rates differ.
    const session = sessionTranscodeArgs(encode, 'flv', 14.9);
    expect(session.slice(0, session.indexOf('-i'))).toEqual([...GLOBAL, '-f', 'flv', '-probesize', '4096', '-analyzeduration', '0', '-thread_type', 'slice']);
    expect(vf(session)).not.toContain('fps=');
    expect(vf(sessionTranscodeArgs(encode, 'flv'))).toContain('fps=fps=15');
    expect(vf(sessionTranscodeArgs(encode, 'flv', 30))).toContain('prev_selected_t*15');
    expect(vf(sessionTranscodeArgs(encode, 'flv', 30))).not.toContain('fps=');
  });

  it('writes FLV for the live packager when asked, fragmented MP4 otherwise', () => {
    const encode = spec(640, 360, 15, 400);
    const fits = { codec: 'h264', width: 640, height: 360, frameRate: 12.5 };
    expect(urlCameraArgs({ url: 'rtsp://10.0.0.5/s', encode, probe: fits, output: 'flv' }).slice(-FLV.length)).toEqual(FLV);
    expect(urlCameraArgs({ url: 'rtsp://10.0.0.5/s', encode, probe: fits, output: 'fmp4' }).slice(-FMP4.length)).toEqual(FMP4);
    // The packager's frame rate: the camera's own when copied, the template's when transcoded.
    expect(urlCameraFrameRate({ encode, probe: fits })).toBe(12.5);
    expect(urlCameraFrameRate({ encode, probe: { ...fits, codec: 'hevc' } })).toBe(15);
    expect(urlCameraFrameRate({ encode })).toBe(15);
  });

  it('copies only H.264 4:2:0 at the same size, a known frame rate no higher (within 2 %), and a bitrate no higher when known', () => {
    const t = spec(640, 360, 15, 400);
    const fit = { codec: 'h264', width: 640, height: 360, frameRate: 15 };
    expect(canCopy(fit, t)).toBe(true);
    expect(canCopy({ ...fit, frameRate: 12.5, bitrateKbps: 300 }, t)).toBe(true);
    expect(canCopy({ ...fit, codec: 'hevc' }, t)).toBe(false);
    expect(canCopy({ ...fit, width: 1280, height: 720 }, t)).toBe(false);
    expect(canCopy({ ...fit, frameRate: 25 }, t)).toBe(false);
    // A camera at the template's rate, measured from its wandering clock, is still that rate.
    expect(canCopy({ ...fit, frameRate: 15.012 }, t)).toBe(true);
    expect(canCopy({ ...fit, frameRate: 15.25 }, t)).toBe(true);
    expect(canCopy({ ...fit, frameRate: 15.5 }, t)).toBe(false);
    expect(canCopy({ codec: 'h264', width: 640, height: 360 }, t)).toBe(false);
    expect(canCopy({ ...fit, bitrateKbps: 2000 }, t)).toBe(false);
    expect(canCopy({ ...fit, pixFmt: 'yuv420p10le' }, t)).toBe(false);
  });

  it('tells RTSP, local files and other network inputs apart', () => {
    expect(urlKind('rtsp://cam/1')).toBe('rtsp');
    expect(urlKind('RTSPS://cam/1')).toBe('rtsp');
    expect(urlKind('/var/cams/a.mp4')).toBe('file');
    expect(urlKind('file:/var/cams/a.mp4')).toBe('file');
    expect(urlKind('clips/a.mp4')).toBe('file');
    expect(urlKind('http://cam/video.mjpg')).toBe('network');
    expect(urlKind('srt://cam:9000')).toBe('network');
  });
});

describe('the encoders at the satellite tier (≤ 32 kbit/s)', () => {
  const satellite = (codec: 'h264' | 'av1') => ({ ...spec(320, 180, 3, 32), codec });

  it('encodes AV1 with SVT-AV1: low delay, CBR with a two-second buffer, one thread, a keyframe every 10 s, less the boxes’ share', () => {
    // 32 kbit/s on the link less ~2.6 kbit/s of fragment boxes (110 bytes × 3 pictures a second).
    expect(pictureKbps(satellite('av1'))).toBe(29);
    expect(videoEncodeArgs(satellite('av1'))).toEqual([
      '-c:v', 'libsvtav1', '-preset', '10',
      '-svtav1-params', 'pred-struct=1:rc=2:buf-sz=2000:buf-initial-sz=1000:buf-optimal-sz=1000:lp=1:tune=0:scd=0',
      '-pix_fmt', 'yuv420p', '-g', '30', '-b:v', '29k', '-flags:v', '+global_header',
    ]);
  });

  it('tunes x264 for the tier (slower preset, High profile, one thread, 10 s keyframes, two-second VBV) and leaves the other definitions as they were', () => {
    expect(videoEncodeArgs(satellite('h264'))).toEqual([
      '-c:v', 'libx264', '-preset', 'slower', '-tune', 'zerolatency', '-profile:v', 'high', '-threads', '1', '-pix_fmt', 'yuv420p',
      '-g', '30', '-keyint_min', '30', '-sc_threshold', '0', '-b:v', '29k', '-maxrate', '29k', '-bufsize', '58k',
      '-flags:v', '+global_header',
    ]);
    expect(videoEncodeArgs(spec(320, 180, 5, 150))).toEqual(h264('5', '150k'));
    expect(keyframeSeconds({ bitrateKbps: 32 })).toBe(10);
    expect(keyframeSeconds({ bitrateKbps: 33 })).toBe(1);
  });

  it('never copies a camera’s H.264 into a stream asked in AV1, and transcodes a session’s pictures into AV1 in fragmented MP4', () => {
    const fit = { codec: 'h264', width: 320, height: 180, frameRate: 3 };
    expect(canCopy(fit, satellite('h264'))).toBe(true);
    expect(canCopy(fit, satellite('av1'))).toBe(false);
    const args = sessionTranscodeArgs(satellite('av1'), 'fmp4', 3);
    expect(args).toContain('libsvtav1');
    expect(args.slice(-FMP4.length)).toEqual(FMP4);
  });
});
