/** The package version, reported as the MCP server version and in the OpenAPI document. */
import { packageVersion } from '../package-root.ts';

export const TOOLHOST_VERSION: string = packageVersion();
