/** `POST /v1/dispatch?provider=`: run the tool calls of a provider assistant message. */
import { Hono } from 'hono';
import type { Host } from '../../host-types.ts';
import { requestTrace } from '../../telemetry/http-middleware.ts';
import { dispatchToolCalls } from '../dispatch/dispatch.ts';
import { DISPATCH_PROVIDERS, DispatchShapeError, isDispatchProvider, TooManyCallsError, type DispatchProvider } from '../dispatch/types.ts';
import { HttpError } from '../http-errors.ts';
import { readJsonBody } from '../request-body.ts';
import { principalOption } from '../../identity/request-principal.ts';

/** `maxCalls`: the most calls one dispatch may carry (`limits.max_dispatch_calls`); more are refused with 400 too_many_calls. */
export function dispatchRoutes(host: Host, options: { maxCalls?: number } = {}): Hono {
  const app = new Hono();
  app.post('/v1/dispatch', async (c) => {
    const requested = c.req.query('provider');
    let provider: DispatchProvider | undefined;
    if (requested !== undefined && requested !== '') {
      if (!isDispatchProvider(requested)) {
        throw new HttpError(400, 'invalid_query', `Unknown provider "${requested}"; allowed values: ${DISPATCH_PROVIDERS.join(', ')}.`, { allowed: [...DISPATCH_PROVIDERS] });
      }
      provider = requested;
    }
    const body = await readJsonBody(c);
    try {
      const trace = requestTrace(c);
      const response = await dispatchToolCalls(host, body, { ...(provider ? { provider } : {}), ...(options.maxCalls !== undefined ? { maxCalls: options.maxCalls } : {}), signal: c.req.raw.signal, ...principalOption(c.req.raw), ...(trace !== undefined ? { trace } : {}) });
      return c.json(response);
    } catch (error) {
      // A union turn that does not validate is refused whole (400 invalid_body, every reason listed) before any call runs.
      if (error instanceof TooManyCallsError) throw new HttpError(400, 'too_many_calls', error.message, { calls: error.calls, max_calls: error.maxCalls });
      if (error instanceof DispatchShapeError) throw new HttpError(400, provider === 'union' ? 'invalid_body' : 'unrecognized_message', error.message);
      throw error;
    }
  });
  return app;
}
