/** Resources: the workspace as `file:///{path}` resources, and the extension point for more sources. */
export { ResourceCatalog } from './catalog.ts';
export { ResourceError } from './types.ts';
export type { CompletionAnswer, ResourceContents, ResourceErrorCode, ResourcePage, ResourceSource } from './types.ts';
export { parseWorkspaceUri, workspaceUri, WORKSPACE_URI_TEMPLATE } from './file-uri.ts';
export { workspaceResourceSource, MAX_RESOURCE_BYTES, RESOURCE_PAGE_SIZE, MAX_COMPLETION_VALUES } from './workspace-source.ts';
export type { WorkspaceResourceOptions } from './workspace-source.ts';
