/** Which reader reads a camera: the agent's own for rtsp://, ffmpeg for the rest or when set. */
import { describe, expect, it } from 'vitest';
import { isBSlice, sliceType } from '../../src/media/avc.ts';
import { cameraReaderFor, cameraReaderSetting } from '../../src/media/camera-reader.ts';
import { CameraSessions } from '../../src/media/camera-session.ts';

describe('the camera reader setting', () => {
  it('reads rtsp:// cameras with the rtsp reader unless AGENT_CAMERA_READER=ffmpeg', () => {
    expect(cameraReaderFor('rtsp://10.0.0.5/stream1', 'auto')).toBe('rtsp');
    expect(cameraReaderFor('RTSP://admin:x@10.0.0.5:554/Streaming/Channels/101', 'auto')).toBe('rtsp');
    expect(cameraReaderFor('rtsp://10.0.0.5/stream1', 'ffmpeg')).toBe('ffmpeg');
    // What the rtsp reader does not speak: TLS, HTTP, MPEG-TS over UDP, files.
    for (const url of ['rtsps://10.0.0.5/stream1', 'http://10.0.0.5/video.mjpg', 'udp://239.0.0.1:1234', '/srv/camera.ts']) {
      expect(cameraReaderFor(url, 'auto')).toBe('ffmpeg');
      expect(cameraReaderFor(url, 'rtsp')).toBe('ffmpeg');
    }
  });

  it('takes auto, rtsp or ffmpeg, and says so for anything else', () => {
    expect(cameraReaderSetting(undefined)).toBe('auto');
    expect(cameraReaderSetting(' FFmpeg ')).toBe('ffmpeg');
    expect(cameraReaderSetting('rtsp')).toBe('rtsp');
    expect(() => cameraReaderSetting('gstreamer')).toThrow('AGENT_CAMERA_READER must be auto, rtsp or ffmpeg, not "gstreamer"');
  });

  it('stops an agent with a wrong setting when it starts, not when the first camera opens', () => {
    const before = process.env.AGENT_CAMERA_READER;
    process.env.AGENT_CAMERA_READER = 'vlc';
    try {
      expect(() => new CameraSessions()).toThrow(/AGENT_CAMERA_READER/);
    } finally {
      if (before === undefined) delete process.env.AGENT_CAMERA_READER;
      else process.env.AGENT_CAMERA_READER = before;
    }
  });
});

describe('slice types', () => {
  it('reads slice_type after first_mb_in_slice, so a B slice is told apart', () => {
    // first_mb_in_slice 0 ('1'), then slice_type: P 0 ('1'), B 1 ('010'), B-only 6 ('00111'), I 7 ('0001000').
    expect(sliceType(Buffer.from([0x41, 0xc0]))).toBe(0);
    expect(sliceType(Buffer.from([0x01, 0xa0]))).toBe(1);
    expect(sliceType(Buffer.from([0x01, 0x9c]))).toBe(6);
    expect(sliceType(Buffer.from([0x65, 0x88, 0x00]))).toBe(7);
    expect([0xc0, 0xa0, 0x9c].map((b) => isBSlice(Buffer.from([0x41, b])))).toEqual([false, true, true]);
    expect(() => sliceType(Buffer.from([0x67, 0x42]))).toThrow(/not a slice/);
  });
});
