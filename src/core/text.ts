// Text folding for case- and accent-insensitive matching (search `query`, technician names), and
// finding a sentence's own characters in the text it came from.

const COMBINING_MARKS = /\p{M}+/gu;

/** Lower-cases and strips combining marks: "Núñez" and "NUNEZ" both become "nunez". */
export function stripMarks(value: string): string {
  return value.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().normalize('NFC');
}

/**
 * Letters that are not a base letter with a mark, so stripping marks leaves them: each is folded to
 * what a reader without it on the keyboard types ("Łódź" → "lodz", "Straße" → "strasse").
 */
const LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ł: 'l',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  þ: 'th',
  ı: 'i',
};
/**
 * Typographic apostrophes and quotation marks, which phones and word processors put in for the ones
 * on the keyboard: "I’d" and "I'd" are one word to a reader.
 */
const MARKS: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201b': "'",
  '\u02bc': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201f': '"',
  '\u2033': '"',
};
const FOLDED = { ...LETTERS, ...MARKS };
const OTHER_LETTERS = new RegExp(`[${Object.keys(FOLDED).join('')}]`, 'g');

/**
 * Lower-cases and strips diacritics, letters with a stroke or ligatures included: "Núñez",
 * "NUNEZ" and "Nuñez" all fold to "nunez", "Øster" to "oster", "Straße" to "strasse"; curly
 * apostrophes and quotation marks become straight ones ("I’d" → "i'd").
 */
export function foldText(value: string): string {
  return stripMarks(value).replace(OTHER_LETTERS, (letter) => FOLDED[letter]!);
}

/**
 * The characters of `text` that one of its sentences came from. A sentence's text has its
 * whitespace collapsed (a line break or a run of spaces is one space, as wink reads it); the
 * review's own characters keep theirs, so that a quote is exactly what the review says. The first
 * place the sentence's words stand in `text`; null when they stand nowhere.
 */
export function sourceOf(text: string, sentence: string): string | null {
  const words = sentence.split(' ').map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text.match(new RegExp(words.join('\\s+')))?.[0] ?? null;
}
