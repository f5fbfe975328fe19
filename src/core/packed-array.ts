// Unsigned integers packed at the bit width their largest value needs: the suffix array of a 40 MB
// text needs 26 bits a position, not 32, which at 100k reviews keeps about 30 MB out of memory.
// Reading one value costs two word reads and a few shifts.

export interface PackedArray {
  length: number;
  /** Bits per value, 1 to 32. */
  width: number;
  words: Uint32Array;
}

export function bitsFor(maxValue: number): number {
  let width = 1;
  while (width < 32 && 2 ** width <= maxValue) width += 1;
  return width;
}

export function packArray(values: ArrayLike<number>, maxValue: number): PackedArray {
  const width = bitsFor(maxValue);
  const words = new Uint32Array(Math.ceil((values.length * width) / 32) + 1);
  for (let i = 0; i < values.length; i += 1) {
    const bit = i * width;
    const word = Math.floor(bit / 32);
    const offset = bit % 32;
    const value = values[i]! >>> 0;
    words[word]! |= value << offset;
    if (offset + width > 32) words[word + 1]! |= value >>> (32 - offset);
  }
  return { length: values.length, width, words };
}

/** Value `i` of a packed array. */
export function packedReader(packed: PackedArray): (i: number) => number {
  const { width, words } = packed;
  const mask = width === 32 ? 0xffffffff : 2 ** width - 1;
  return (i) => {
    const bit = i * width;
    const word = Math.floor(bit / 32);
    const offset = bit % 32;
    let value = words[word]! >>> offset;
    if (offset + width > 32) value |= words[word + 1]! << (32 - offset);
    return (value & mask) >>> 0;
  };
}
