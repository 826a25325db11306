/** A minimal SSE reader for tests: yields `{event, data, id}` records from a fetch Response. */
export interface SseRecord {
  event: string;
  data: string;
  id?: string;
}

export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  readonly comments: string[] = [];

  constructor(response: Response) {
    if (!response.body) throw new Error('response has no body');
    this.reader = response.body.getReader();
  }

  /** The next event (comments are collected, not returned); rejects after `timeoutMs`. */
  async next(timeoutMs = 5_000): Promise<SseRecord> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const boundary = this.buffer.indexOf('\n\n');
      if (boundary >= 0) {
        const block = this.buffer.slice(0, boundary);
        this.buffer = this.buffer.slice(boundary + 2);
        const record = this.parse(block);
        if (record) return record;
        continue;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('timed out waiting for an SSE event');
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out waiting for an SSE event')), remaining);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) throw new Error('SSE stream ended');
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** Resolves when the server ends the stream. */
  async ended(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (Date.now() > deadline) throw new Error('stream did not end');
      const chunk = await this.reader.read();
      if (chunk.done) return;
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  private parse(block: string): SseRecord | undefined {
    let event = 'message';
    const data: string[] = [];
    let id: string | undefined;
    let sawField = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      sawField = true;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      if (field === 'data') data.push(value);
      if (field === 'id') id = value;
    }
    if (!sawField) return undefined;
    return id === undefined ? { event, data: data.join('\n') } : { event, data: data.join('\n'), id };
  }
}
