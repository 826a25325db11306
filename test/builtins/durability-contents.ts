/** The two complete file contents the kill -9 durability test alternates (different sizes and bytes). */
export function durabilityContents(bytes: number): { first: string; second: string } {
  const firstLine = `${'A'.repeat(99)}\n`;
  const secondLine = `${'b'.repeat(63)}\n`;
  return {
    first: firstLine.repeat(Math.max(1, Math.floor(bytes / firstLine.length))),
    second: secondLine.repeat(Math.max(1, Math.floor((bytes * 3) / 2 / secondLine.length))),
  };
}
