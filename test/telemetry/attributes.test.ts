/**
 * The span attribute names toolhost spells out (src/telemetry/attributes.ts, so the call path loads no
 * OpenTelemetry module) are the semantic conventions' own: each checked against the export of
 * @opentelemetry/semantic-conventions (stable, or `/incubating` for GenAI, MCP and JSON-RPC). The
 * package (1.45) marks the GenAI names deprecated only because they moved to the GenAI conventions'
 * own repository; the names are unchanged. `gen_ai.tool.type` = `extension` is one of the values that
 * attribute's documentation lists (agent-side execution); the package has no constant for it.
 */
import * as stable from '@opentelemetry/semantic-conventions';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it } from 'vitest';
import * as names from '../../src/telemetry/attributes.ts';

describe('semantic convention names', () => {
  it.each([
    ['GEN_AI_OPERATION_NAME', incubating.ATTR_GEN_AI_OPERATION_NAME],
    ['EXECUTE_TOOL', incubating.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL],
    ['GEN_AI_TOOL_NAME', incubating.ATTR_GEN_AI_TOOL_NAME],
    ['GEN_AI_TOOL_CALL_ID', incubating.ATTR_GEN_AI_TOOL_CALL_ID],
    ['GEN_AI_TOOL_TYPE', incubating.ATTR_GEN_AI_TOOL_TYPE],
    ['MCP_METHOD_NAME', incubating.ATTR_MCP_METHOD_NAME],
    ['MCP_SESSION_ID', incubating.ATTR_MCP_SESSION_ID],
    ['MCP_PROTOCOL_VERSION', incubating.ATTR_MCP_PROTOCOL_VERSION],
    ['MCP_RESOURCE_URI', incubating.ATTR_MCP_RESOURCE_URI],
    ['JSONRPC_REQUEST_ID', incubating.ATTR_JSONRPC_REQUEST_ID],
    ['JSONRPC_PROTOCOL_VERSION', incubating.ATTR_JSONRPC_PROTOCOL_VERSION],
    ['RPC_RESPONSE_STATUS_CODE', incubating.ATTR_RPC_RESPONSE_STATUS_CODE],
    ['HTTP_REQUEST_METHOD', stable.ATTR_HTTP_REQUEST_METHOD],
    ['HTTP_RESPONSE_STATUS_CODE', stable.ATTR_HTTP_RESPONSE_STATUS_CODE],
    ['HTTP_ROUTE', stable.ATTR_HTTP_ROUTE],
    ['URL_PATH', stable.ATTR_URL_PATH],
    ['URL_SCHEME', stable.ATTR_URL_SCHEME],
    ['USER_AGENT_ORIGINAL', stable.ATTR_USER_AGENT_ORIGINAL],
    ['NETWORK_PROTOCOL_NAME', stable.ATTR_NETWORK_PROTOCOL_NAME],
    ['ERROR_TYPE', stable.ATTR_ERROR_TYPE],
  ] as const)('%s', (name, expected) => {
    expect(names[name]).toBe(expected);
  });

});
