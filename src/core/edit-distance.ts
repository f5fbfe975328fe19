// How far apart two words are, for the suggestions that name the word someone probably meant: the
// content loader's "did you mean" and the aspect analyzer's spelling repair share this one measure.

/**
 * The optimal-string-alignment distance between `a` and `b`: the fewest insertions, deletions,
 * replacements and swaps of two neighbouring letters that turn one into the other. With `max`,
 * any distance known to be over it comes back as `max + 1` without the full count.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
