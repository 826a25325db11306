/**
 * Progress on stderr while extension components transpile on a cold start. Written only when
 * stderr is a TTY (a single line rewritten in place), so pipes and logs never see it.
 */
import { basename } from 'node:path';
import { type CliIo, painterFor, truncate } from './output.ts';

export interface ProgressReporter {
  /** `HostOptions.onLoadProgress`. */
  update: (progress: { file: string; done: number; total: number }) => void;
  /** Clears the progress line, if one was drawn. */
  done: () => void;
}

/** Shows nothing for loads that finish quickly: the line appears after this delay only. */
const PROGRESS_DELAY_MS = 300;

export function createProgressReporter(io: Pick<CliIo, 'stderr' | 'env'>): ProgressReporter {
  if (io.stderr.isTTY !== true) return { update: () => undefined, done: () => undefined };
  const paint = painterFor(io.stderr, io.env);
  const started = Date.now();
  let drawn = false;
  const columns = (io.stderr as { columns?: number }).columns ?? 80;
  return {
    update({ file, done, total }) {
      if (total <= 1 || Date.now() - started < PROGRESS_DELAY_MS) return;
      const prefix = `loading extensions ${done}/${total} `;
      const line = prefix + paint('dim', truncate(basename(file), Math.max(10, columns - 1 - prefix.length)));
      io.stderr.write(`\r\u001b[2K${line}`);
      drawn = true;
    },
    done() {
      if (drawn) io.stderr.write('\r\u001b[2K');
      drawn = false;
    },
  };
}
