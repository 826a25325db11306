/** The package version, reported as the MCP server version and in the OpenAPI document. */
import { readFileSync } from 'node:fs';

function readPackageVersion(): string {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const parsed = JSON.parse(text) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const TOOLHOST_VERSION: string = readPackageVersion();
