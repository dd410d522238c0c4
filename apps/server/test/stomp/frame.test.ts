import { describe, expect, it } from 'vitest';
import {
  FrameParser,
  type StompFrame,
  StompFrameError,
  escapeHeader,
  parseFrames,
  serializeFrame,
  unescapeHeader,
} from '../../src/core/bus/stomp-frame.ts';

function collect(parser: FrameParser, ...chunks: (string | Buffer)[]): StompFrame[] {
  const out: StompFrame[] = [];
  for (const c of chunks) parser.push(c, (f) => out.push(f));
  return out;
}

function errorOf(fn: () => unknown): StompFrameError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StompFrameError) return err;
    throw err;
  }
  throw new Error('expected a StompFrameError');
}

describe('header escaping', () => {
  it('escapes and unescapes the four STOMP 1.2 sequences', () => {
    const raw = 'a:b\\c\nd\re';
    const escaped = escapeHeader(raw);
    expect(escaped).toBe('a\\cb\\\\c\\nd\\re');
    expect(unescapeHeader(escaped)).toBe(raw);
  });

  it('refuses an undefined escape sequence', () => {
    expect(errorOf(() => unescapeHeader('tab\\t')).code).toBe('invalid-escape');
    expect(errorOf(() => unescapeHeader('trailing\\')).code).toBe('invalid-escape');
  });

  it('unescapes headers of SUBSCRIBE but not of CONNECT', () => {
    const [sub, conn] = parseFrames('SUBSCRIBE\nid:0\ndestination:/a\\cb\\\\c\n\n\0CONNECT\nlogin:a\\cb\n\n\0');
    expect(sub?.headers.destination).toBe('/a:b\\c');
    expect(conn?.headers.login).toBe('a\\cb');
  });

  it('treats an escaped header name like any other', () => {
    const [f] = parseFrames('SEND\nx\\cy:1\n\n\0');
    expect(f?.headers['x:y']).toBe('1');
  });

  it('splits a CONNECT header at its first colon', () => {
    const [f] = parseFrames('CONNECT\npasscode:a:b:c\n\n\0');
    expect(f?.headers.passcode).toBe('a:b:c');
  });

  it('round-trips escaped headers through the serializer', () => {
    const bytes = serializeFrame({ command: 'MESSAGE', headers: { destination: '/x:y\nz\\', 'weird:name': 'v' }, body: '{}' });
    expect(bytes.toString()).toContain('destination:/x\\cy\\nz\\\\\n');
    const [f] = parseFrames(bytes);
    expect(f?.headers.destination).toBe('/x:y\nz\\');
    expect(f?.headers['weird:name']).toBe('v');
  });

  it('does not escape CONNECTED and refuses values it cannot write raw', () => {
    expect(serializeFrame({ command: 'CONNECTED', headers: { server: 'a:b' } }).toString()).toBe('CONNECTED\nserver:a:b\n\n\0');
    expect(() => serializeFrame({ command: 'CONNECTED', headers: { server: 'a\nb' } })).toThrow();
  });
});

describe('frame parsing', () => {
  it('parses command, headers and a body up to the NUL', () => {
    const [f] = parseFrames('SEND\ndestination:/q\n\nhello\0');
    expect(f?.command).toBe('SEND');
    expect(f?.headers).toEqual({ destination: '/q' });
    expect(f?.body.toString()).toBe('hello');
  });

  it('accepts CRLF line ends', () => {
    const [f] = parseFrames('SEND\r\ndestination:/q\r\n\r\nx\0');
    expect(f?.headers.destination).toBe('/q');
    expect(f?.body.toString()).toBe('x');
  });

  it('keeps the first of repeated headers', () => {
    const [f] = parseFrames('MESSAGE\nfoo:World\nfoo:Hello\n\n\0');
    expect(f?.headers.foo).toBe('World');
  });

  it('keeps header values as they are, spaces included, and a header named __proto__ as a plain entry', () => {
    const [f] = parseFrames('SEND\n a : b \n__proto__:x\n\n\0');
    expect(f?.headers[' a ']).toBe(' b ');
    expect(Object.getOwnPropertyDescriptor(f?.headers, '__proto__')?.value).toBe('x');
  });

  it('reads exactly content-length bytes, NULs included', () => {
    const body = Buffer.from([1, 0, 2, 0, 0, 3]);
    const bytes = Buffer.concat([Buffer.from(`SEND\ncontent-length:${body.length}\n\n`), body, Buffer.from([0])]);
    const [f] = parseFrames(bytes);
    expect(f?.body.equals(body)).toBe(true);
  });

  it('serializes a content-length so a body with NULs survives the round trip', () => {
    const body = Buffer.from('a\0b\0');
    const [f] = parseFrames(serializeFrame({ command: 'MESSAGE', headers: { destination: '/d' }, body }));
    expect(f?.headers['content-length']).toBe('4');
    expect(f?.body.equals(body)).toBe(true);
  });

  it('handles UTF-8 headers and bodies', () => {
    const bytes = serializeFrame({ command: 'MESSAGE', headers: { destination: '/shipStatus/蓝海之星' }, body: '{"n":"长风号"}' });
    const [f] = parseFrames(bytes);
    expect(f?.headers.destination).toBe('/shipStatus/蓝海之星');
    expect(f?.headers['content-length']).toBe(String(Buffer.byteLength('{"n":"长风号"}')));
    expect(f?.body.toString()).toBe('{"n":"长风号"}');
  });

  it('parses several frames in one message, with heart-beat EOLs around them', () => {
    const frames = parseFrames('\n\r\nSUBSCRIBE\nid:1\ndestination:/a\n\n\0\n\nSUBSCRIBE\nid:2\ndestination:/b\n\n\0\r\n\n');
    expect(frames.map((f) => f.headers.id)).toEqual(['1', '2']);
  });

  it('ignores messages that are only heart-beats', () => {
    const parser = new FrameParser();
    expect(collect(parser, '\n', '\r\n', '\n\n')).toEqual([]);
    expect(parser.bufferedBytes).toBe(0);
  });

  it('assembles a frame split across messages at every byte', () => {
    const bytes = serializeFrame({ command: 'SEND', headers: { destination: '/q', x: 'é' }, body: 'a\0b' });
    for (let cut = 1; cut < bytes.length; cut++) {
      const parser = new FrameParser();
      const frames = collect(parser, bytes.subarray(0, cut), bytes.subarray(cut));
      expect(frames, `cut at ${cut}`).toHaveLength(1);
      expect(frames[0]?.body.toString()).toBe('a\0b');
      expect(frames[0]?.headers.x).toBe('é');
    }
  });

  it('delivers a frame one byte at a time', () => {
    const bytes = Buffer.from('SUBSCRIBE\nid:7\ndestination:/z\n\n\0\nUNSUBSCRIBE\nid:7\n\n\0');
    const parser = new FrameParser();
    const out = collect(parser, ...[...bytes].map((b) => Buffer.from([b])));
    expect(out.map((f) => f.command)).toEqual(['SUBSCRIBE', 'UNSUBSCRIBE']);
  });

  it('delivers the frames before a malformed one, then stays failed', () => {
    const parser = new FrameParser();
    const out: StompFrame[] = [];
    const err = errorOf(() => parser.push('SEND\n\nok\0bad frame\n\n\0', (f) => out.push(f)));
    expect(out).toHaveLength(1);
    expect(err.code).toBe('malformed');
    expect(() => parser.push('SEND\n\n\0', () => {})).toThrow(StompFrameError);
  });

  it('accepts a text or binary message alike', () => {
    const parser = new FrameParser();
    const frames = collect(parser, 'SEND\n\n', Buffer.from('x\0'));
    expect(frames[0]?.body.toString()).toBe('x');
  });
});

describe('malformed frames', () => {
  const cases: [string, string, string][] = [
    ['lower-case command', 'send\n\n\0', 'malformed'],
    ['header without colon', 'SEND\nnocolon\n\n\0', 'malformed'],
    ['header with empty name', 'SEND\n:v\n\n\0', 'malformed'],
    ['NUL inside the headers', 'SEND\na:b\0\n\n', 'malformed'],
    ['frame ending before the blank line', 'SEND\na:b\n\0', 'malformed'],
    ['bad escape', 'SEND\na:\\t\n\n\0', 'invalid-escape'],
    ['non-numeric content-length', 'SEND\ncontent-length:abc\n\n\0', 'invalid-content-length'],
    ['negative content-length', 'SEND\ncontent-length:-1\n\n\0', 'invalid-content-length'],
    ['body longer than content-length', 'SEND\ncontent-length:1\n\nabc\0', 'malformed'],
  ];
  it.each(cases)('%s', (_name, text, code) => {
    expect(errorOf(() => parseFrames(text)).code).toBe(code);
  });

  it('refuses a head that is not UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from('SEND\na:'), Buffer.from([0xff, 0xfe]), Buffer.from('\n\n\0')]);
    expect(errorOf(() => parseFrames(bytes)).code).toBe('invalid-utf8');
  });

  it('reports data that ends inside a frame', () => {
    expect(errorOf(() => parseFrames('SEND\n\nno nul')).code).toBe('malformed');
  });
});

describe('limits', () => {
  it('refuses a body without content-length growing past the frame limit, before its end arrives', () => {
    const parser = new FrameParser({ maxFrameBytes: 100 });
    parser.push('SEND\n\n', () => {});
    expect(errorOf(() => parser.push('x'.repeat(200), () => {})).code).toBe('frame-too-large');
  });

  it('refuses a declared content-length past the limit at once', () => {
    const parser = new FrameParser({ maxFrameBytes: 100 });
    expect(errorOf(() => parser.push('SEND\ncontent-length:1000\n\n', () => {})).code).toBe('frame-too-large');
  });

  it('accepts a frame of exactly the limit and refuses one byte more', () => {
    const head = 'SEND\n\n';
    const exact = head + 'x'.repeat(100 - head.length - 1) + '\0';
    expect(Buffer.byteLength(exact)).toBe(100);
    expect(parseFrames(exact, { maxFrameBytes: 100 })).toHaveLength(1);
    const over = head + 'x'.repeat(100 - head.length) + '\0';
    expect(errorOf(() => parseFrames(over, { maxFrameBytes: 100 })).code).toBe('frame-too-large');
  });

  it('refuses too many headers', () => {
    const headers = Array.from({ length: 5 }, (_, i) => `h${i}:v`).join('\n');
    expect(parseFrames(`SEND\n${headers}\n\n\0`, { maxHeaders: 5 })).toHaveLength(1);
    const more = Array.from({ length: 6 }, (_, i) => `h${i}:v`).join('\n');
    expect(errorOf(() => parseFrames(`SEND\n${more}\n\n\0`, { maxHeaders: 5 })).code).toBe('too-many-headers');
  });

  it('refuses a long header line, even before its end arrives', () => {
    expect(errorOf(() => parseFrames(`SEND\na:${'v'.repeat(50)}\n\n\0`, { maxHeaderBytes: 20 })).code).toBe('header-too-long');
    const parser = new FrameParser({ maxHeaderBytes: 20 });
    expect(errorOf(() => parser.push(`SEND\na:${'v'.repeat(50)}`, () => {})).code).toBe('header-too-long');
  });

  it('refuses an endless head', () => {
    const parser = new FrameParser({ maxFrameBytes: 200, maxHeaderBytes: 100 });
    parser.push('SEND\n', () => {});
    const push = () => {
      for (let i = 0; i < 50; i++) parser.push('a:bbbbbbbbbbbbbbbbbbbbbbbbb\n', () => {});
    };
    expect(errorOf(push).code).toBe('frame-too-large');
  });
});
