/**
 * The HTTP server span of every API request (hono middleware, installed only when telemetry is on):
 * named `{method} {route}` (OpenTelemetry HTTP semantic conventions: `http.request.method`,
 * `url.path`, `url.scheme`, `http.route`, `http.response.status_code`, `user_agent.original`;
 * status ERROR for 5xx), its parent the W3C `traceparent`/`tracestate` of the request headers.
 * Routes hand it to their calls with `requestTrace(c)`, which is `undefined` without the middleware.
 * The span ends when the handler answers (a streamed body such as SSE goes on after it).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { HTTP_REQUEST_METHOD, HTTP_RESPONSE_STATUS_CODE, HTTP_ROUTE, NETWORK_PROTOCOL_NAME, URL_PATH, URL_SCHEME, USER_AGENT_ORIGINAL } from './attributes.ts';
import type { Telemetry, TraceSpan } from './span.ts';

const TRACE_KEY = 'toolhost.trace';

/** The request's HTTP server span, when tracing is on. */
export function requestTrace(c: Context): TraceSpan | undefined {
  return c.get(TRACE_KEY) as TraceSpan | undefined;
}

/** The route pattern that answered (`/v1/tools/:name/call`), not the path (its cardinality is bounded). */
function matchedRoute(c: Context): string | undefined {
  const routes = c.req.matchedRoutes;
  for (let index = routes.length - 1; index >= 0; index -= 1) {
    const route = routes[index];
    if (route !== undefined && route.method !== 'ALL' && route.path !== '*' && route.path !== '/*') return route.path;
  }
  return undefined;
}

export function httpTracing(telemetry: Telemetry): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const method = c.req.method;
    const span = telemetry.startSpan(
      method,
      { traceparent: c.req.header('traceparent')?.slice(0, 128), tracestate: c.req.header('tracestate')?.slice(0, 512) },
      {
        kind: 'server',
        attributes: {
          [HTTP_REQUEST_METHOD]: method,
          [URL_PATH]: url.pathname,
          [URL_SCHEME]: url.protocol.replace(/:$/, ''),
          [NETWORK_PROTOCOL_NAME]: 'http',
          [USER_AGENT_ORIGINAL]: c.req.header('user-agent')?.slice(0, 256),
        },
      },
    );
    c.set(TRACE_KEY, span);
    try {
      await next();
    } finally {
      const route = matchedRoute(c);
      if (route !== undefined) {
        span.updateName(`${method} ${route}`);
        span.setAttributes({ [HTTP_ROUTE]: route });
      }
      const status = c.res.status;
      span.setAttributes({ [HTTP_RESPONSE_STATUS_CODE]: status });
      if (status >= 500) span.fail(String(status));
      span.end();
    }
  };
}
