/** Session descriptions as cameras write them: codec, parameter sets, control URLs. */
import { describe, expect, it } from 'vitest';
import { parseSdp, resolveControl, videoTrack } from '../../../src/media/rtsp/sdp.ts';

// As a common IP camera describes its main stream (audio first, control URLs relative).
const CAMERA_SDP = [
  'v=0',
  'o=- 1109162014219182 1109162014219192 IN IP4 192.168.1.64',
  's=Media Presentation',
  'e=NONE',
  'b=AS:5050',
  't=0 0',
  'a=control:rtsp://192.168.1.64:554/Streaming/Channels/101/?transportmode=unicast',
  'm=audio 0 RTP/AVP 0',
  'a=rtpmap:0 PCMU/8000',
  'a=control:rtsp://192.168.1.64:554/Streaming/Channels/101/trackID=2?transportmode=unicast',
  'm=video 0 RTP/AVP 96',
  'c=IN IP4 0.0.0.0',
  'b=AS:5000',
  'a=recvonly',
  'a=x-dimensions:1920,1080',
  'a=control:rtsp://192.168.1.64:554/Streaming/Channels/101/trackID=1?transportmode=unicast',
  'a=rtpmap:96 H264/90000',
  'a=fmtp:96 profile-level-id=420029; packetization-mode=1; sprop-parameter-sets=Z01AKI2NQDwBE/LCAAAOEAACvyAI,aO44gA==',
  '',
].join('\r\n');

// As GStreamer's RTSP server describes an H.265 stream (relative control, Content-Base given).
const GST_H265_SDP = [
  'v=0',
  'o=- 1188340656180883 1 IN IP4 127.0.0.1',
  's=Session streamed with GStreamer',
  't=0 0',
  'a=tool:GStreamer',
  'a=type:broadcast',
  'a=control:*',
  'a=range:npt=now-',
  'm=video 0 RTP/AVP 96',
  'c=IN IP4 0.0.0.0',
  'a=rtpmap:96 H265/90000',
  'a=fmtp:96 sprop-vps=QAEMAf//AWAAAAMAkAAAAwAAAwA/lZgJ;sprop-sps=QgEBAWAAAAMAkAAAAwAAAwA/oAoIDxZZWZKTK8BAAAADAEAAAAMFQg==;sprop-pps=RAHBcrRiQA==',
  'a=control:stream=0',
  'a=ts-refclk:local',
  'a=mediaclk:sender',
  '',
].join('\n');

describe('SDP', () => {
  it('finds the video stream of a camera that lists audio first, with its parameter sets and control URL', () => {
    const track = videoTrack(parseSdp(CAMERA_SDP), 'rtsp://192.168.1.64:554/Streaming/Channels/101');
    if ('unsupported' in track) throw new Error(track.unsupported);
    expect(track).toMatchObject({ codec: 'h264', payloadType: 96, clockRate: 90_000, packetizationMode: 1 });
    expect(track.control).toBe('rtsp://192.168.1.64:554/Streaming/Channels/101/trackID=1?transportmode=unicast');
    expect(track.parameterSets.map((p) => (p[0] as number) & 0x1f)).toEqual([7, 8]);
    expect(track.parameterSets[1]?.toString('hex')).toBe('68ee3880');
  });

  it('reads H.265’s VPS, SPS and PPS and resolves a relative control against the base', () => {
    const track = videoTrack(parseSdp(GST_H265_SDP), 'rtsp://127.0.0.1:18600/cam/');
    if ('unsupported' in track) throw new Error(track.unsupported);
    expect(track.codec).toBe('h265');
    expect(track.control).toBe('rtsp://127.0.0.1:18600/cam/stream=0');
    expect(track.parameterSets.map((p) => ((p[0] as number) >> 1) & 0x3f)).toEqual([32, 33, 34]);
  });

  it('says which codec it cannot read, and refuses a description without video or not SDP at all', () => {
    const mjpeg = 'v=0\r\nm=video 0 RTP/AVP 26\r\na=control:track1\r\n';
    expect(videoTrack(parseSdp(mjpeg), 'rtsp://cam/')).toEqual({ unsupported: 'the camera sends JPEG video' });
    expect(() => videoTrack(parseSdp('v=0\r\nm=audio 0 RTP/AVP 0\r\n'), 'rtsp://cam/')).toThrow(/no video/);
    expect(() => parseSdp('<html>401</html>')).toThrow(/not a session description/);
    expect(() => parseSdp('v=0\r\nm=video 0 RTP/AVP 96\r\na=fmtp:96 sprop-parameter-sets=Z0I*,aM4=\r\n')).not.toThrow();
    expect(() => videoTrack(parseSdp('v=0\r\nm=video 0 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\na=fmtp:96 sprop-parameter-sets=Z0I*,aM4=\r\n'), 'rtsp://c/')).toThrow(/not base64/);
  });

  it('resolves control URLs the way cameras mean them', () => {
    expect(resolveControl('rtsp://cam/live/ch0', 'trackID=1')).toBe('rtsp://cam/live/ch0/trackID=1');
    expect(resolveControl('rtsp://cam/live/ch0/', 'trackID=1')).toBe('rtsp://cam/live/ch0/trackID=1');
    expect(resolveControl('rtsp://cam/live', '*')).toBe('rtsp://cam/live');
    expect(resolveControl('rtsp://cam/live', undefined)).toBe('rtsp://cam/live');
    expect(resolveControl('rtsp://cam/live', 'rtsp://other/x')).toBe('rtsp://other/x');
  });
});
