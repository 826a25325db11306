/**
 * The text-protocol scanner under attack, through a real `toolhost serve` process: bodies near the
 * 1 MiB body limit made of the scanner's worst cases (test/server/adversarial-text.ts: unclosed JSON
 * values inside closed tags and fences, unclosed strings, bare tags and fences) are answered, and
 * /healthz polled meanwhile keeps answering. The old scanner walked to the end of the text once per
 * unclosed block: a 336 KB body froze the daemon 24-43 s. Bounds here are generous (a loaded 2-core
 * machine); test/bench/text-protocol-scan.ts measures the scan itself. The daemon keeps the default
 * call cap (limits.max_dispatch_calls 64): the whole text is scanned before the calls are counted, so
 * a body of thousands of blocks still meets the scanner, then is refused as too_many_calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from '../console/daemon.ts';
import { temporaryDirectory } from '../cli/run-cli.ts';
import { adversarialTexts } from './adversarial-text.ts';

/** Under the default 1 MiB body limit, JSON escaping included. */
const BODY_BYTES = 1_000_000;
/** /healthz answered within this while a dispatch is scanned (the old scanner froze it for tens of seconds). */
const HEALTHZ_BOUND_MS = 2_000;

function nearLimit(make: (size: number) => string): string {
  let size = BODY_BYTES;
  let body = JSON.stringify({ text: make(size) });
  while (Buffer.byteLength(body) > BODY_BYTES) {
    size = Math.floor((size * BODY_BYTES) / Buffer.byteLength(body)) - 64;
    body = JSON.stringify({ text: make(size) });
  }
  return body;
}

/** Posts `body` to /v1/dispatch?provider=text while polling /healthz; the slowest /healthz answer and the dispatch's status. */
async function dispatchWhilePolling(url: string, body: string): Promise<{ status: number; answer: any; slowestHealthzMs: number; polls: number }> {
  let done = false;
  const dispatched = fetch(`${url}/v1/dispatch?provider=text`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (response) => {
    const answer: unknown = await response.json();
    done = true;
    return { status: response.status, answer };
  });
  let slowest = 0;
  let polls = 0;
  while (!done) {
    const started = performance.now();
    const health = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(120_000) });
    expect(health.status).toBe(200);
    await health.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
    polls += 1;
  }
  const { status, answer } = await dispatched;
  return { status, answer, slowestHealthzMs: slowest, polls };
}

let workspace: { path: string; remove: () => void };
let daemon: Daemon;

beforeAll(async () => {
  workspace = temporaryDirectory();
  daemon = await startDaemon(['--workspace', workspace.path], workspace.path);
}, 60_000);
afterAll(async () => {
  await daemon?.stop();
  workspace?.remove();
});

describe('POST /v1/dispatch?provider=text with worst-case texts near the body limit', () => {
  for (const [title, make] of adversarialTexts) {
    it(`${title}: answered, /healthz keeps answering`, async () => {
      const body = nearLimit(make);
      expect(Buffer.byteLength(body)).toBeGreaterThan(BODY_BYTES * 0.9);
      const { status, answer, slowestHealthzMs } = await dispatchWhilePolling(daemon.url, body);
      if (status === 400) expect(answer.error).toMatchObject({ code: 'too_many_calls', details: { max_calls: 64 } });
      else {
        expect(status, JSON.stringify(answer).slice(0, 300)).toBe(200);
        expect(answer.provider).toBe('text');
      }
      expect(slowestHealthzMs).toBeLessThan(HEALTHZ_BOUND_MS);
    }, 120_000);
  }
});
