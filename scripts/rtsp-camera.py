#!/usr/bin/python3
"""A real RTSP camera for tests, benchmarks and the demo: Debian's GStreamer RTSP server (the same
server many IP cameras and NVRs embed) serving a live test picture encoded by x264 or x265.

    /usr/bin/python3 scripts/rtsp-camera.py --port 18554 [--codec h264|h265] [--slices N]
        [--width 320] [--height 240] [--fps 10] [--bitrate 300] [--path /cam] [--stdin[=flv|h264]]
        [--user U --password P [--auth digest|basic]] [--session-timeout S] [--bframes N]

It serves rtsp://127.0.0.1:PORT/PATH (default /cam). Every client shares one encoder (as a camera
does), so all sessions see the same frames. --slices N cuts every picture into N slices (x264
`slices=N`, like IP cameras that encode with several threads; x265 `slices=N`). A restart is the
process stopped and started again on the same port (a camera reboot). --stdin serves the H.264
another encoder writes to its stdin (the benchmarks' capture-coded synthetic picture): --stdin=flv
(one FLV tag a picture, read from the start whether or not anyone watches; each picture is sent on
as soon as it is whole, a few ms after the encoder wrote it) or --stdin=h264 (an Annex B byte
stream, the default and the old way: nothing reads the pipe before the first client, the backlog
is then sent at the camera's pace, and h264parse holds every picture until the next one begins).

It prints one line `ready rtsp://…` on stdout once it listens (with --stdin=flv, once the encoder's
sequence header is in), and on stderr one line per RTSP
session it opens or closes (`session open N` / `session close N`, N = sessions open now), so a
test can count the camera sessions a client holds. SIGTERM or SIGINT stops it. With --user and
--password the camera asks for them (Digest by default, as most cameras do; --auth basic). --codec
mjpeg sends JPEG pictures (RFC 2435), a codec the agent's own RTSP reader leaves to ffmpeg.
"""

import argparse
import os
import signal
import socket as socket_module
import sys

import gi

gi.require_version('Gst', '1.0')
gi.require_version('GstRtspServer', '1.0')
gi.require_version('GstRtsp', '1.0')
from gi.repository import GLib, Gst, GstRtsp, GstRtspServer  # noqa: E402


def pipeline(a: argparse.Namespace) -> str:
    if a.stdin == 'flv':
        # Someone else's encoder, one FLV tag a picture, read by FlvFeed below: each picture goes
        # in whole, stamped as it arrives (a live source), and is sent at once.
        return ('( appsrc name=feed is-live=true do-timestamp=true format=time max-buffers=8 leaky-type=downstream '
                '! h264parse config-interval=-1 ! video/x-h264,stream-format=byte-stream,alignment=au '
                '! rtph264pay name=pay0 pt=96 )')
    if a.stdin == 'h264':
        # Someone else's encoder: H.264 Annex B on stdin, stamped as it arrives (a live source).
        return '( fdsrc fd=0 do-timestamp=true ! h264parse ! rtph264pay name=pay0 pt=96 config-interval=-1 )'
    source = (
        f'videotestsrc is-live=true pattern={a.pattern} '
        f'! video/x-raw,width={a.width},height={a.height},framerate={a.fps}/1,format=I420 '
    )
    gop = max(1, a.fps * a.gop_seconds)
    if a.codec == 'mjpeg':
        encoder = '! jpegenc ! rtpjpegpay name=pay0 pt=26'
    elif a.codec == 'h264':
        options = f'slices={a.slices}' if a.slices > 1 else ''
        # B-frames need the main profile and x264 without its zero-latency tuning (which turns them off).
        tune = f'bframes={a.bframes} b-adapt=false' if a.bframes > 0 else 'tune=zerolatency'
        profile = 'main' if a.bframes > 0 else 'baseline'
        encoder = (
            f'! x264enc {tune} speed-preset=ultrafast bitrate={a.bitrate} key-int-max={gop} '
            f'threads={max(1, a.slices)} option-string="{options}" '
            f'! video/x-h264,profile={profile},stream-format=byte-stream '
            '! rtph264pay name=pay0 pt=96 config-interval=-1'
        )
    else:
        options = [f'slices={a.slices}'] if a.slices > 1 else []
        # B-frames: x265 without its zero-latency tuning (which turns them off), a fixed pattern.
        if a.bframes > 0:
            options += [f'bframes={a.bframes}', 'b-adapt=0']
        tune = '' if a.bframes > 0 else 'tune=zerolatency '
        encoder = (
            f'! x265enc {tune}speed-preset=ultrafast bitrate={a.bitrate} key-int-max={gop} '
            f'option-string="{":".join(options)}" '
            '! video/x-h265,stream-format=byte-stream '
            '! rtph265pay name=pay0 pt=96 config-interval=-1'
        )
    return f'( {source}{encoder} )'


def no_sync(_bin: Gst.Bin, _parent: Gst.Bin, element: Gst.Element) -> None:
    if element.find_property('sync') is not None:
        element.set_property('sync', False)


def capture_time_reports(_bin: Gst.Bin, _parent: Gst.Bin, element: Gst.Element) -> None:
    # RTCP sender reports that map the RTP clock to when each picture was captured (its buffer's
    # time), as IP cameras' do, rather than to when it was sent (GStreamer's default).
    if element.find_property('rtcp-sync-send-time') is not None:
        element.set_property('rtcp-sync-send-time', False)


class FlvFeed:
    """Reads the encoder's FLV from stdin as it comes (the encoder never waits, as a camera's
    does not wait for a viewer) and hands each H.264 picture whole to the media's appsrc, when a
    client has made one; with none, pictures are dropped. FLV: a 9-byte header and a 4-byte
    previous-tag size, then tags [type:1][size:3][time:3][time ext:1][stream:3][data][size:4]."""

    def __init__(self, on_ready) -> None:
        # Called once, when the stream's format is known (the first sequence header).
        self.on_ready = on_ready
        self.buffer = b''
        self.header_done = False
        self.caps: Gst.Caps | None = None
        self.src: Gst.Element | None = None

    def attach(self, media: GstRtspServer.RTSPMedia) -> None:
        self.src = media.get_element().get_by_name('feed')
        if self.caps is not None:
            self.src.set_property('caps', self.caps)
        # The sinks send each packet as it comes, unsynchronised to the pipeline clock (made when
        # the first client sets up; camera-chain.bench.ts: ~4 ms less at an RTSP client).
        media.get_element().get_parent().connect('deep-element-added', no_sync)

    def read(self, fd: int) -> bool:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return False
        self.buffer += chunk
        if not self.header_done:
            if len(self.buffer) < 13:
                return True
            self.buffer = self.buffer[13:]
            self.header_done = True
        while len(self.buffer) >= 11:
            size = int.from_bytes(self.buffer[1:4], 'big')
            if len(self.buffer) < 11 + size + 4:
                break
            kind, data = self.buffer[0] & 0x1f, self.buffer[11:11 + size]
            self.buffer = self.buffer[11 + size + 4:]
            if kind == 9 and len(data) > 5 and data[0] & 0x0f == 7:
                self.video(data[1], data[5:])
        return True

    def video(self, packet_type: int, payload: bytes) -> None:
        if packet_type == 0:
            # AVCDecoderConfigurationRecord: the stream's caps.
            first = self.caps is None
            self.caps = Gst.Caps.from_string('video/x-h264,stream-format=avc,alignment=au')
            self.caps.set_value('codec_data', Gst.Buffer.new_wrapped(payload))
            if self.src is not None:
                self.src.set_property('caps', self.caps)
            if first:
                self.on_ready()
        elif packet_type == 1 and self.src is not None and self.caps is not None and self.src.current_state == Gst.State.PLAYING:
            # Only once playing: do-timestamp needs the running clock.
            self.src.emit('push-buffer', Gst.Buffer.new_wrapped(payload))


def main() -> None:
    p = argparse.ArgumentParser(description='A GStreamer RTSP test camera.')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--path', default='/cam')
    p.add_argument('--codec', choices=['h264', 'h265', 'mjpeg'], default='h264')
    p.add_argument('--slices', type=int, default=1)
    p.add_argument('--width', type=int, default=320)
    p.add_argument('--height', type=int, default=240)
    p.add_argument('--fps', type=int, default=10)
    p.add_argument('--bitrate', type=int, default=300, help='kbit/s')
    p.add_argument('--gop-seconds', type=int, default=1)
    p.add_argument('--bframes', type=int, default=0, help='B-frames between references (H.264: main profile; H.265: x265 without zero latency)')
    p.add_argument('--pattern', default='ball')
    p.add_argument('--stdin', nargs='?', const='h264', choices=['h264', 'flv'], help='serve H.264 read from stdin (Annex B, or FLV) instead of encoding a test picture')
    p.add_argument('--user', help='the camera asks for this user name (with --password)')
    p.add_argument('--password')
    p.add_argument('--auth', choices=['digest', 'basic'], default='digest')
    p.add_argument('--session-timeout', type=int, default=0, help='seconds a session lives without a keep-alive (default: the server\'s 60)')
    a = p.parse_args()
    if (a.user is None) != (a.password is None):
        p.error('--user and --password go together')
    if not a.path.startswith('/'):
        p.error('--path must start with /')
    if a.slices < 1 or a.fps < 1 or a.width < 16 or a.height < 16:
        p.error('--slices and --fps must be at least 1, the picture at least 16x16')

    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address('127.0.0.1')
    server.set_service(str(a.port))
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(pipeline(a))
    # One encoder for all clients, like a camera; kept running between clients so a new one joins.
    factory.set_shared(True)
    factory.set_suspend_mode(GstRtspServer.RTSPSuspendMode.NONE)
    if a.user is not None:
        auth = GstRtspServer.RTSPAuth()
        token = GstRtspServer.RTSPToken()
        token.set_string('media.factory.role', 'user')
        if a.auth == 'digest':
            auth.set_supported_methods(GstRtsp.RTSPAuthMethod.DIGEST)
            auth.add_digest(a.user, a.password, token)
        else:
            auth.set_supported_methods(GstRtsp.RTSPAuthMethod.BASIC)
            auth.add_basic(GstRtspServer.RTSPAuth.make_basic(a.user, a.password), token)
        server.set_auth(auth)
        factory.add_role_from_structure(Gst.Structure.from_string('user, media.factory.access=(boolean)true, media.factory.construct=(boolean)true')[0])
    def say_ready() -> None:
        print(f'ready rtsp://127.0.0.1:{a.port}{a.path}', flush=True)

    # A stdin camera is ready once it knows its stream (the encoder's sequence header): a client
    # that came earlier would be described a stream without its format.
    feed = FlvFeed(say_ready) if a.stdin == 'flv' else None
    if feed is not None:
        factory.connect('media-configure', lambda _factory, media: feed.attach(media))
    factory.connect('media-configure', lambda _factory, media: media.get_element().get_parent().connect('deep-element-added', capture_time_reports))
    server.get_mount_points().add_factory(a.path, factory)

    open_sessions = set()

    def on_client(_server, client):
        if a.stdin:
            # RTP interleaved on this connection goes out at once, not held back by Nagle's
            # algorithm for the client's ACK of a picture's earlier packets.
            socket = client.get_connection().get_write_socket()
            socket.set_option(socket_module.IPPROTO_TCP, socket_module.TCP_NODELAY, 1)
        def on_new_session(_client, session):
            if a.session_timeout:
                session.set_timeout(a.session_timeout)
            open_sessions.add(session.get_sessionid())
            print(f'session open {len(open_sessions)}', file=sys.stderr, flush=True)

        def on_closed(_client):
            print('client closed', file=sys.stderr, flush=True)

        client.connect('new-session', on_new_session)
        client.connect('closed', on_closed)

    server.connect('client-connected', on_client)

    def on_session_removed(_pool, session):
        open_sessions.discard(session.get_sessionid())
        print(f'session close {len(open_sessions)}', file=sys.stderr, flush=True)

    server.get_session_pool().connect('session-removed', on_session_removed)

    if server.attach(None) == 0:
        print(f'cannot listen on 127.0.0.1:{a.port}', file=sys.stderr, flush=True)
        sys.exit(1)

    loop = GLib.MainLoop()
    parent = os.getppid()

    # Expired sessions (a client that vanished) are cleaned up every second. A camera whose parent
    # (a test run) died without stopping it goes too, instead of holding its port for the next run.
    def cleanup() -> bool:
        server.get_session_pool().cleanup()
        if os.getppid() != parent:
            loop.quit()
            return False
        return True

    GLib.timeout_add_seconds(1, cleanup)
    for sig in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, sig, loop.quit)
    if feed is not None:
        # The encoder feeding us is gone (end of stdin): so is the camera.
        GLib.io_add_watch(GLib.IOChannel.unix_new(0), GLib.PRIORITY_DEFAULT, GLib.IOCondition.IN | GLib.IOCondition.HUP, lambda *_: feed.read(0) or loop.quit() or False)
    elif a.stdin:
        # The encoder feeding us is gone: so is the camera.
        GLib.io_add_watch(GLib.IOChannel.unix_new(0), GLib.PRIORITY_DEFAULT, GLib.IOCondition.HUP, lambda *_: loop.quit() or False)
    if feed is None:
        say_ready()
    loop.run()


if __name__ == '__main__':
    main()
