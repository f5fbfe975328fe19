// The shipped model's two weight tables read straight from its JSON text. They are most of the
// 26 MB file: `JSON.parse` made an array of each of their 660,000 rows and an object keyed by the
// rows' buckets, only for every row to be copied into a table of 16-bit integers (about a second of
// every build's start). Read here, each weight goes from the text into an integer of hundredths.
// Only the form the model is saved in (`serializeAspectModel`) is read this way; anything else
// (spaces, a weight with more decimals, an exponent or a leading zero, a row of another length, a
// table's key twice) gives null, and the caller parses the file as JSON, which reports what is
// wrong with it. The caller also checks that each table read here was the file's own (its key at
// the top level of the rest).

/** One table: the buckets in file order, and their rows of `classes` hundredths each. */
export interface HundredthsSection {
  buckets: number[];
  hundredths: Int16Array;
}

export interface SplitModelJson {
  /** The model's JSON with each table read here left as `{}`. */
  rest: string;
  sections: Map<string, HundredthsSection>;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const isDigit = (code: number) => code >= ZERO && code <= NINE;
/** The largest whole number of hundredths a 16-bit table holds. */
const MAX_HUNDREDTHS = 32767;
/** Above this a bucket is no hashed feature of any model (2^31). */
const MAX_BUCKET = 2 ** 31;

/**
 * The tables `names` (each with `classes` weights per row) read from the model's JSON text, and
 * the rest of the text to parse as JSON; null when the text is not in the saved form.
 */
export function splitModelJson(
  json: string,
  names: readonly (readonly [name: string, classes: number])[],
): SplitModelJson | null {
  const found = names.map(([name, classes]) => {
    const key = `"${name}":{`;
    const at = json.indexOf(key);
    // Once only: a second one is another object's key, or the key repeated.
    if (at < 0 || json.indexOf(key, at + 1) >= 0) return { name, classes, start: -1 };
    return { name, classes, start: at + key.length - 1 };
  });
  if (found.some(({ start }) => start < 0)) return null;
  found.sort((a, b) => a.start - b.start);
  const sections = new Map<string, HundredthsSection>();
  const parts: string[] = [];
  let copied = 0;
  for (const { name, classes, start } of found) {
    if (start < copied) return null;
    const read = readSection(json, start, classes);
    if (read === null) return null;
    sections.set(name, read.section);
    parts.push(json.slice(copied, start), '{}');
    copied = read.end;
  }
  parts.push(json.slice(copied));
  return { rest: parts.join(''), sections };
}

/**
 * The table whose `{` is at `start`: `{"bucket":[w,…],…}` with `classes` weights a row, and the
 * index just past its `}`.
 */
function readSection(
  json: string,
  start: number,
  classes: number,
): { section: HundredthsSection; end: number } | null {
  const buckets: number[] = [];
  let hundredths = new Int16Array(1024 * classes);
  let count = 0;
  if (json.charCodeAt(start) !== OPEN_BRACE) return null;
  let at = start + 1;
  if (json.charCodeAt(at) === CLOSE_BRACE)
    return { section: { buckets, hundredths: hundredths.subarray(0, 0) }, end: at + 1 };
  for (;;) {
    // "bucket":[
    if (json.charCodeAt(at++) !== QUOTE || !isDigit(json.charCodeAt(at))) return null;
    if (json.charCodeAt(at) === ZERO && isDigit(json.charCodeAt(at + 1))) return null;
    let bucket = 0;
    while (isDigit(json.charCodeAt(at))) {
      bucket = bucket * 10 + (json.charCodeAt(at++) - ZERO);
      if (bucket >= MAX_BUCKET) return null;
    }
    if (json.charCodeAt(at++) !== QUOTE || json.charCodeAt(at++) !== COLON) return null;
    if (json.charCodeAt(at++) !== OPEN_BRACKET) return null;
    buckets.push(bucket);
    if (hundredths.length < count + classes) {
      const grown = new Int16Array(hundredths.length * 2);
      grown.set(hundredths);
      hundredths = grown;
    }
    // w,w,…]
    for (let c = 0; c < classes; c++) {
      if (c > 0 && json.charCodeAt(at++) !== COMMA) return null;
      const negative = json.charCodeAt(at) === MINUS;
      if (negative) at++;
      if (!isDigit(json.charCodeAt(at))) return null;
      // A leading zero before another digit is not JSON.
      if (json.charCodeAt(at) === ZERO && isDigit(json.charCodeAt(at + 1))) return null;
      let value = 0;
      while (isDigit(json.charCodeAt(at))) {
        value = value * 10 + (json.charCodeAt(at++) - ZERO);
        if (value * 100 > MAX_HUNDREDTHS) return null;
      }
      value *= 100;
      if (json.charCodeAt(at) === DOT) {
        at++;
        if (!isDigit(json.charCodeAt(at))) return null;
        value += (json.charCodeAt(at++) - ZERO) * 10;
        if (isDigit(json.charCodeAt(at))) value += json.charCodeAt(at++) - ZERO;
        // A third decimal, or an exponent: not a whole number of hundredths as saved.
        if (isDigit(json.charCodeAt(at))) return null;
      }
      if (value > MAX_HUNDREDTHS) return null;
      hundredths[count++] = negative ? -value : value;
    }
    if (json.charCodeAt(at++) !== CLOSE_BRACKET) return null;
    const next = json.charCodeAt(at++);
    if (next === CLOSE_BRACE)
      return { section: { buckets, hundredths: hundredths.subarray(0, count) }, end: at };
    if (next !== COMMA) return null;
  }
}
