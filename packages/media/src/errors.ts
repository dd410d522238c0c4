export type Fmp4ErrorCode =
  /** A box (or a unit being assembled) is larger than the configured limit. */
  | 'tooLarge'
  /** Bytes that are not a fragmented MP4 stream, or boxes in an order that cannot be split. */
  | 'malformed'
  /** Valid MP4 that is not carried (a codec the reader was told to refuse, no video track, size-0 boxes). */
  | 'unsupported'
  /** `end()` was called with a partial box still buffered. */
  | 'truncated';

export class Fmp4Error extends Error {
  readonly code: Fmp4ErrorCode;
  constructor(code: Fmp4ErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = 'Fmp4Error';
  }
}
