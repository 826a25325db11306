/** "Did you mean" ranking (src/similar-names.ts): edit distance with swaps, containment, caps on length. */
import { describe, expect, it } from 'vitest';
import { editDistance, MAX_COMPARED_LENGTH, similarNames } from '../../src/similar-names.ts';

describe('similar names', () => {
  it('measures insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('read_file', 'read_file')).toBe(0);
    expect(editDistance('read_fle', 'read_file')).toBe(1);
    expect(editDistance('read_fiel', 'read_file')).toBe(1);
    expect(editDistance('raed_file', 'read_file')).toBe(1);
    expect(editDistance('READ_FILE', 'read_file')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('ranks the closest first and leaves out names too far for their length', () => {
    expect(similarNames('read_fle', ['write_file', 'read_file', 'edit_file'])).toEqual(['read_file']);
    expect(similarNames('edit_fle', ['write_file', 'read_file', 'edit_file'])).toEqual(['edit_file']);
    expect(similarNames('file', ['read_file', 'write_file'])).toEqual(['read_file', 'write_file']);
    expect(similarNames('ls', ['list_dir', 'glob'])).toEqual([]);
    expect(similarNames('', ['a'])).toEqual([]);
    expect(similarNames('a', ['a'])).toEqual([]);
    expect(similarNames('grpe', ['grep', 'glob', 'group_by', 'gre'], 2)).toEqual(['grep', 'gre']);
  });

  it('compares no name longer than the cap by edit distance', () => {
    const long = 'a'.repeat(MAX_COMPARED_LENGTH + 1);
    expect(similarNames(long, [`${long.slice(1)}b`])).toEqual([]);
    expect(similarNames(long, [long.slice(0, 10)])).toEqual([long.slice(0, 10)]);
  });
});
