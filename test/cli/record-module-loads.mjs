// Preloaded with `--import` by tests (NODE_OPTIONS): appends the URL of every module the process loads,
// one a line, to the file named by RECORD_MODULE_LOADS. How a test sees which modules a CLI run
// imported (module.registerHooks, Node 22.15+: a synchronous hook on this thread, which also sees the
// modules tsx's loader hands over).
import { appendFileSync } from 'node:fs';
import module from 'node:module';

const out = process.env['RECORD_MODULE_LOADS'];
if (out !== undefined && out !== '') {
  module.registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(out, `${url}\n`);
      return nextLoad(url, context);
    },
  });
}
