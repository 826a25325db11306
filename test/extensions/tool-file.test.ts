/**
 * findToolFile: which file serves a name, told from file names and `.tool.json` names alone, and
 * undefined whenever the folder's clash rule could make the answer depend on loading the files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { findToolFile } from '../../src/extensions/tool-file.ts';
import { tempRoot, type TempRoot } from './helpers.ts';

const BUILTINS = ['read_file', 'shell'];
let root: TempRoot;
let folder: string;
beforeEach(() => {
  root = tempRoot();
  folder = join(root.folder('x'), 'tools');
  mkdirSync(folder);
});
afterEach(() => root.remove());

const file = (name: string, content = 'not loaded'): string => {
  writeFileSync(join(folder, name), content);
  return join(folder, name);
};

it('finds the file named after the tool, or named so by its .tool.json', async () => {
  const greet = file('greet.wasm');
  const renamed = file('long-file-name.wasm');
  file('long-file-name.tool.json', JSON.stringify({ name: 'short' }));
  file('notes.txt');
  expect(await findToolFile(folder, 'greet', BUILTINS)).toBe(greet);
  expect(await findToolFile(folder, 'short', BUILTINS)).toBe(renamed);
  expect(await findToolFile(folder, 'long-file-name', BUILTINS)).toBeUndefined();
  expect(await findToolFile(folder, 'notes', BUILTINS)).toBeUndefined();
});

it('leaves built-in names and unknown names to the full host', async () => {
  file('read_file.wasm');
  file('greet.wasm');
  expect(await findToolFile(folder, 'read_file', BUILTINS)).toBeUndefined();
  expect(await findToolFile(folder, 'missing', BUILTINS)).toBeUndefined();
});

it('answers nothing while any name in the folder clashes', async () => {
  file('a b.wasm');
  file('a_b.wasm');
  file('greet.wasm');
  expect(await findToolFile(folder, 'greet', BUILTINS)).toBeUndefined();
  expect(await findToolFile(folder, 'a_b', BUILTINS)).toBeUndefined();
});

it('answers nothing while a file wants a built-in name (it would take a suffixed one)', async () => {
  file('shell.wasm');
  file('shell_2.wasm');
  expect(await findToolFile(folder, 'shell_2', BUILTINS)).toBeUndefined();
});
