/** Sound codecs a stream's mime may name beside its picture (RFC 6381). */
const SOUND_CODEC = /^(mp4a|opus|flac|ac-3|ec-3)(\.|$)/i;

/** `video/mp4; codecs="avc1…,mp4a.40.2"` without its sound codecs; the same string when it has none. */
export function pictureOnlyMime(mime: string): string {
  const match = /codecs="([^"]*)"/i.exec(mime);
  if (!match?.[1]) return mime;
  const codecs = match[1].split(',').map((c) => c.trim());
  const picture = codecs.filter((c) => !SOUND_CODEC.test(c));
  if (picture.length === codecs.length || picture.length === 0) return mime;
  return mime.replace(match[0], `codecs="${picture.join(',')}"`);
}
