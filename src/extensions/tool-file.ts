/**
 * Which `.wasm` file of an extensions folder serves a tool name, told without loading any component:
 * what lets a one-shot `toolhost call` load only the tool it calls.
 */
import { planFolderToolNames } from './tool-names.ts';

/**
 * The file that a host started on `directory` would serve as `name`, or undefined when that cannot be
 * told from file names alone: no file wants the name, or a clash in the folder (two files wanting one
 * name, or a file wanting a built-in's name) hands out suffixed names in an order that a file failing to
 * load would change. The caller then loads the whole folder, which settles every case the usual way.
 * `reserved` are the built-ins' names.
 */
export async function findToolFile(directory: string, name: string, reserved: readonly string[]): Promise<string | undefined> {
  if (reserved.includes(name)) return undefined;
  const planned = await planFolderToolNames(directory, reserved);
  if (planned.some((entry) => entry.clash !== undefined)) return undefined;
  return planned.find((entry) => entry.name === name)?.file;
}
