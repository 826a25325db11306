/** The preview1 path's entry for the runners (worker, in-process): the cached tool's one module, invoked. */
import type { InvokeResult } from '../invoke.ts';
import type { CoreModules } from '../module-cache.ts';
import type { CallOptions } from '../run-types.ts';
import { PREVIEW1_MODULE_FILE } from '../transpile-cache.ts';
import { invokePreview1 } from './invoke.ts';

export function runPreview1Module(modules: CoreModules, options: CallOptions): InvokeResult {
  const module = modules[PREVIEW1_MODULE_FILE];
  if (module === undefined) throw new Error(`the preview1 tool has no ${PREVIEW1_MODULE_FILE}`);
  return invokePreview1(module, options);
}
