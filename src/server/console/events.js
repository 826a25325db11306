// The live event stream, GET /v1/events. EventSource cannot send an Authorization header, so the
// stream is read with fetch() (which can) and parsed here; the format is the SSE wire format
// (`event:`, `data:`, `id:` lines, a blank line ends an event, `:` lines are comments).

/**
 * Splits SSE text into events. Keeps the unfinished tail for the next chunk.
 */
export class SseParser {
  constructor() {
    this.buffer = '';
  }

  /**
   * @param {string} chunk
   * @returns {{ event: string, data: string, id?: string }[]}
   */
  push(chunk) {
    this.buffer += chunk;
    const events = [];
    for (;;) {
      const match = /\r\n\r\n|\n\n|\r\r/.exec(this.buffer);
      if (match === null) break;
      const block = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const parsed = parseBlock(block);
      if (parsed !== undefined) events.push(parsed);
    }
    return events;
  }
}

function parseBlock(block) {
  let event = 'message';
  const data = [];
  let id;
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  if (data.length === 0) return undefined;
  return { event, data: data.join('\n'), ...(id === undefined ? {} : { id }) };
}

/**
 * Keeps a stream open, reconnecting after errors (1 s, doubling up to 15 s).
 * @param {import('./api.js').ApiClient} api
 * @param {{ onEvent: (event: any) => void, onStatus: (status: 'connecting' | 'open' | 'closed') => void, onReconnect: () => void }} handlers
 *   onReconnect runs after a stream reopens, so the caller can refetch what it may have missed.
 * @returns {() => void} stops the stream
 */
export function followEvents(api, handlers) {
  const controller = new AbortController();
  let delay = 1000;
  let opened = false;
  const run = async () => {
    while (!controller.signal.aborted) {
      handlers.onStatus('connecting');
      try {
        const { response, entry } = await api.requestLogged('/v1/events', { headers: { accept: 'text/event-stream' }, signal: controller.signal });
        if (!response.ok || response.body === null) throw new Error(`events: HTTP ${response.status}`);
        handlers.onStatus('open');
        if (opened) handlers.onReconnect();
        opened = true;
        delay = 1000;
        const parser = new SseParser();
        // The protocol log shows the stream's bytes as they arrive.
        entry.received = 0;
        const counted = response.body.pipeThrough(
          new TransformStream({
            transform(chunk, output) {
              entry.received = (entry.received ?? 0) + chunk.byteLength;
              api.record(entry);
              output.enqueue(chunk);
            },
          }),
        );
        const reader = counted.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const message of parser.push(value)) {
            try {
              handlers.onEvent(JSON.parse(message.data));
            } catch (error) {
              console.warn('unreadable event', message, error);
            }
          }
        }
      } catch (error) {
        if (controller.signal.aborted) break;
        console.warn('event stream error', error);
      }
      handlers.onStatus('closed');
      if (controller.signal.aborted) break;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 15_000);
    }
  };
  void run();
  return () => controller.abort();
}
