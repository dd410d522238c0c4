import { describe, expect, it } from 'vitest';
import { captureCodeExpression, syntheticCameraArgs } from '../../src/camera/synthetic-picture.ts';
import { spec } from '../../../../apps/agent/test/media/helpers.ts';

const GLOBAL = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error'];
const h264 = (fps: string, rate: string) => [
  '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p',
  '-g', fps, '-keyint_min', fps, '-sc_threshold', '0', '-b:v', rate, '-maxrate', rate, '-bufsize', rate,
  '-flags:v', '+global_header',
];
const FMP4 = ['-f', 'mp4', '-movflags', '+frag_every_frame+empty_moov+default_base_moof', '-flush_packets', '1', 'pipe:1'];
const FLV = ['-f', 'flv', '-flvflags', 'no_duration_filesize', '-flush_packets', '1', 'pipe:1'];
const MONO = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';

const CODE_EXPR =
  'st(0,round(T*1000));st(1,Y*14+X);16+219*if(lt(ld(1),2),eq(ld(1),0),if(lt(ld(1),50),mod(floor(ld(0)/pow(2,49-ld(1))),2),' +
  'if(lt(ld(1),54),mod(' +
  [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44].map((b) => `mod(floor(ld(0)/pow(2,${b}+ld(1)-50)),2)`).join('+') +
  ',2),eq(ld(1),55))))';

describe('syntheticCameraArgs', () => {
  it('builds the live 640×360@15 400 kbit/s camera: wall-clock time, code strip, H.264 baseline fMP4 on stdout', () => {
    const args = syntheticCameraArgs({ cameraName: 'Bridge', encode: spec(640, 360, 15, 400), fontFile: MONO, realtime: true });
    const graph =
      'color=c=0xf0a030:s=46x46:r=1,format=pix_fmts=yuv420p,trim=end_frame=1[mover];' +
      'color=c=0x1b3a57:s=640x360:r=15,format=pix_fmts=yuv420p,realtime,settb=expr=1/1000,setpts=expr=round(time(0)*1000),split[bg][cc];' +
      `[cc]crop=w=14:h=4:x=0:y=0,geq='lum=${CODE_EXPR}:cb=128:cr=128',scale=w=112:h=32:flags=neighbor[code];` +
      '[bg]drawgrid=w=80:h=60:t=1:c=0x5a7d9a@0.6[scene];' +
      '[scene][mover]overlay=x=(main_w-overlay_w)*(0.5+0.5*sin(2*PI*t/12)):y=(main_h-overlay_h)*(0.5+0.5*sin(2*PI*t/8)):eof_action=repeat,' +
      `drawtext=fontfile=${MONO}:expansion=none:text=Bridge:fontsize=23:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=4:x=9:y=9,` +
      `drawtext='fontfile=${MONO}:text='\\''%{pts:gmtime:0}.%{eif:mod(round(t*1000),1000):d:3} UTC'\\'':fontsize=16:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=4:x=9:y=49'[labelled];` +
      '[labelled][code]overlay=x=16:y=312,settb=expr=1/15,setpts=expr=N[out0]';
    expect(args).toEqual([...GLOBAL, '-f', 'lavfi', '-i', graph, '-an', '-sn', '-dn', ...h264('15', '400k'), ...FMP4]);
  });

  it('renders from a given start, as fast as it can, for a set time; escapes any name; leaves the code out of tiny frames', () => {
    const args = syntheticCameraArgs({
      cameraName: "O'Neil: 前甲板, 1",
      encode: spec(128, 72, 5, 64),
      startEpochMs: 1714560000000,
      realtime: false,
      durationSeconds: 2,
    });
    const graph =
      'color=c=0xf0a030:s=10x10:r=1,format=pix_fmts=yuv420p,trim=end_frame=1[mover];' +
      'color=c=0x1b3a57:s=128x72:r=5,format=pix_fmts=yuv420p,settb=expr=1/1000,setpts=expr=PTS+1714560000000,drawgrid=w=16:h=12:t=1:c=0x5a7d9a@0.6[scene];' +
      '[scene][mover]overlay=x=(main_w-overlay_w)*(0.5+0.5*sin(2*PI*t/12)):y=(main_h-overlay_h)*(0.5+0.5*sin(2*PI*t/8)):eof_action=repeat,' +
      "drawtext='font=Sans:expansion=none:text='\\''O'\\''\\'\\'''\\''Neil: 前甲板, 1'\\'':fontsize=10:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=4:x=4:y=4'," +
      "drawtext='font=Monospace:text='\\''%{pts:gmtime:0}.%{eif:mod(round(t*1000),1000):d:3} UTC'\\'':fontsize=9:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=4:x=4:y=26'," +
      'settb=expr=1/5,setpts=expr=N[out0]';
    expect(args).toEqual([...GLOBAL, '-f', 'lavfi', '-i', graph, '-t', '2', '-an', '-sn', '-dn', ...h264('5', '64k'), ...FMP4]);
  });

  it('draws the code with the same expression the tests decode', () => {
    expect(captureCodeExpression()).toBe(CODE_EXPR);
  });
});

describe('syntheticCameraArgs output', () => {
  it('writes FLV for the live packager when asked', () => {
    const encode = spec(640, 360, 15, 400);
    expect(syntheticCameraArgs({ cameraName: 'A', encode, realtime: true, output: 'flv' }).slice(-FLV.length)).toEqual(FLV);
  });
});
