/**
 * "Did you mean": the known names closest to a mistyped one. A name is close when one contains the
 * other, or when its edit distance (insertions, deletions, substitutions and swaps of two neighbours,
 * optimal string alignment) is small for its length: at most 1 for names of up to 4 characters, 2 up
 * to 8, else 3. The typed name comes from a caller (a model): past `MAX_COMPARED_LENGTH` characters
 * only containment is checked, so one lookup costs at most O(candidates x 64 x 64).
 */

/** Longer typed names are not compared by edit distance (no tool name is this long). */
export const MAX_COMPARED_LENGTH = 64;

/** Edit distance with adjacent transpositions (optimal string alignment), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previousPrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) best = Math.min(best, (previousPrevious[j - 2] as number) + 1);
      current.push(best);
    }
    previousPrevious = previous;
    previous = current;
  }
  return previous[right.length] as number;
}

function allowedDistance(name: string): number {
  return name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
}

/** Up to `limit` candidates close to `typed`, closest first (ties in the candidates' order). */
export function similarNames(typed: string, candidates: readonly string[], limit = 3): string[] {
  if (typed === '') return [];
  const scored: { name: string; score: number; index: number }[] = [];
  candidates.forEach((candidate, index) => {
    if (candidate === typed) return;
    if (candidate.includes(typed) || typed.includes(candidate)) {
      scored.push({ name: candidate, score: Math.abs(candidate.length - typed.length) / 100, index });
      return;
    }
    if (typed.length > MAX_COMPARED_LENGTH || candidate.length > MAX_COMPARED_LENGTH) return;
    if (Math.abs(candidate.length - typed.length) > allowedDistance(typed)) return;
    const distance = editDistance(typed, candidate);
    if (distance <= allowedDistance(typed)) scored.push({ name: candidate, score: distance, index });
  });
  return scored
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.name);
}
