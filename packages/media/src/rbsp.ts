/**
 * Reading H.264 and H.265 parameter sets: the RBSP of a NAL unit and the bit reader with the
 * Exp-Golomb codes their syntax is written in (ITU-T H.264 7.2 and 9.1, H.265 7.2 and 9.2).
 */

/** The RBSP of a NAL unit: emulation prevention bytes (00 00 03) removed. */
export function unescapeRbsp(nal: Uint8Array): Uint8Array {
  const out = new Uint8Array(nal.length);
  let n = 0;
  let zeros = 0;
  for (const b of nal) {
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    zeros = b === 0 ? zeros + 1 : 0;
    out[n++] = b;
  }
  return out.subarray(0, n);
}

/** Reads bits most significant first; `what` names the structure in its errors ("H.265 SPS ends early"). */
export class RbspReader {
  private bit = 0;
  constructor(
    private readonly buf: Uint8Array,
    private readonly what: string,
  ) {}
  u(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.buf[this.bit >> 3];
      if (byte === undefined) throw new Error(`${this.what} ends early`);
      v = v * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return v;
  }
  skip(n: number): void {
    this.bit += n;
    if (this.bit > this.buf.length * 8) throw new Error(`${this.what} ends early`);
  }
  /** ue(v): unsigned Exp-Golomb. */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      if (++zeros > 31) throw new Error(`bad Exp-Golomb code in ${this.what}`);
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }
  /** se(v): signed Exp-Golomb. */
  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -k / 2;
  }
}
