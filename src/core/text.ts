// Text folding for case- and accent-insensitive matching (search `query`, technician names).

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
const OTHER_LETTERS = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'g');

/**
 * Lower-cases and strips diacritics, letters with a stroke or ligatures included: "Núñez",
 * "NUNEZ" and "Nuñez" all fold to "nunez", "Øster" to "oster", "Straße" to "strasse".
 */
export function foldText(value: string): string {
  return stripMarks(value).replace(OTHER_LETTERS, (letter) => LETTERS[letter]!);
}
