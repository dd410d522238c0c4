import { execFile } from 'node:child_process';
import type { ProbedVideo } from './ffmpeg-args.ts';

/** What a camera URL carries (codec, size, frame rate), by ffprobe within a time limit. */
export function probeVideo(url: string, timeoutMs = 10_000): Promise<ProbedVideo | undefined> {
  const args = ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height,avg_frame_rate,r_frame_rate', '-of', 'json'];
  if (url.startsWith('rtsp://') || url.startsWith('rtsps://')) args.push('-rtsp_transport', 'tcp');
  args.push(url);
  return new Promise((resolve) => {
    execFile('ffprobe', args, { timeout: timeoutMs }, (err, stdout) => {
      if (err) return resolve(undefined);
      try {
        const s = (JSON.parse(stdout) as { streams?: { codec_name?: string; width?: number; height?: number; avg_frame_rate?: string; r_frame_rate?: string }[] }).streams?.[0];
        if (!s?.codec_name || !s.width || !s.height) return resolve(undefined);
        const rate = (r: string | undefined) => {
          const [n, d] = (r ?? '0/1').split('/').map(Number);
          return n && d ? n / d : 0;
        };
        resolve({ codec: s.codec_name, width: s.width, height: s.height, frameRate: rate(s.avg_frame_rate) || rate(s.r_frame_rate) });
      } catch {
        resolve(undefined);
      }
    });
  });
}
