// Text folding for case- and accent-insensitive matching (search `query`, technician names).

const COMBINING_MARKS = /\p{M}+/gu;

/** Lower-cases and strips diacritics: "Núñez" and "NUNEZ" both fold to "nunez". */
export function foldText(value: string): string {
  return value.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().normalize('NFC');
}
