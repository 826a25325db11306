/**
 * One MCP `tools/call`'s live events (src/call-events.ts) as notifications on the call's own stream
 * (over Streamable HTTP they travel on the request's SSE response; over stdio on the one stream):
 * - progress → `notifications/progress` with the request's `progressToken`, only when it carried one.
 *   MCP wants the value to increase: a report not above the last one sent is dropped. Reports that
 *   come while one is being sent are coalesced (the latest wins), so a fast source cannot queue more
 *   than one notification;
 * - stderr lines → `notifications/message` under `toolhost.tool.<name>` (mcp-logging.ts: the level a
 *   line states, else `info`), at the session's level, at most MAX_LIVE_LOG_LINES per call; the ones
 *   after are counted, and `finish` reports how many so the end-of-call messages can say so.
 * Nothing is sent once the request is cancelled. Sending never throws into the call.
 */
import type { LoggingLevel, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { CallEvents, CallProgress } from '../call-events.ts';
import type { Logger } from '../logger.ts';
import { isLevelShown, MAX_LOG_MESSAGES_PER_CALL, stderrLineLevel, toolLoggerName } from './mcp-logging.ts';

/** Live stderr lines one call sends at most; the rest of MAX_LOG_MESSAGES_PER_CALL is left to the host's warnings at the end. */
export const MAX_LIVE_LOG_LINES = MAX_LOG_MESSAGES_PER_CALL - 10;

export interface McpCallEventsOptions {
  toolName: string;
  /** The request's `_meta.progressToken`; no progress is sent without one. */
  progressToken: string | number | undefined;
  /** Whether stderr lines go out live (else they are left to the end of the call). */
  streamLog: boolean;
  /** The session's level now. */
  level: () => LoggingLevel;
  sendNotification: (notification: ServerNotification) => Promise<void>;
  signal: AbortSignal;
  logger: Logger;
}

export interface McpCallEvents {
  readonly events: CallEvents;
  /** Sends what is still pending and waits for every notification sent; then `droppedLines` is final. */
  finish(): Promise<{ droppedLines: number }>;
}

export function createMcpCallEvents(options: McpCallEventsOptions): McpCallEvents {
  const { toolName, progressToken, signal } = options;
  const logger = toolLoggerName(toolName);
  let queue: Promise<void> = Promise.resolve();
  const send = (notification: ServerNotification): void => {
    queue = queue.then(() => {
      if (signal.aborted) return undefined;
      return options.sendNotification(notification).catch((error: unknown) => options.logger.debug({ error: String(error) }, 'mcp notification not delivered'));
    });
  };

  let lastProgress = Number.NEGATIVE_INFINITY;
  let pending: CallProgress | undefined;
  let sending = false;
  const sendProgress = (update: CallProgress): void => {
    if (update.progress <= lastProgress) return;
    if (sending) {
      pending = update;
      return;
    }
    lastProgress = update.progress;
    sending = true;
    send({ method: 'notifications/progress', params: { progressToken: progressToken as string | number, ...update } });
    void queue.then(() => {
      sending = false;
      const next = pending;
      pending = undefined;
      if (next !== undefined) sendProgress(next);
    });
  };

  let linesSent = 0;
  let droppedLines = 0;
  const events: CallEvents = {};
  if (progressToken !== undefined) events.progress = sendProgress;
  if (options.streamLog) {
    events.stderrLine = (line) => {
      const text = line.trimEnd();
      if (text.trim() === '') return;
      const level = stderrLineLevel(text) ?? 'info';
      if (!isLevelShown(level, options.level())) return;
      if (linesSent >= MAX_LIVE_LOG_LINES) {
        droppedLines += 1;
        return;
      }
      linesSent += 1;
      send({ method: 'notifications/message', params: { level, logger, data: text } });
    };
  }
  return {
    events,
    async finish() {
      // A pending progress waits for the send in flight, which then sends it: wait until both are done.
      for (let rounds = 0; rounds < 3 && (sending || pending !== undefined); rounds += 1) await queue;
      await queue;
      return { droppedLines };
    },
  };
}
