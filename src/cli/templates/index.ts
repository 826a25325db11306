/** The `toolhost new` templates, one per language. */
import { cTemplate } from './c.ts';
import { goTemplate } from './go.ts';
import { jsTemplate } from './js.ts';
import { pythonTemplate } from './python.ts';
import { rustTemplate } from './rust.ts';
import type { TemplateLanguage, ToolTemplate } from './template.ts';

export { EXAMPLE_DESCRIPTION, exampleHelp, isTemplateLanguage, TEMPLATE_LANGUAGES } from './template.ts';
export type { TemplateFile, TemplateLanguage, ToolTemplate } from './template.ts';

export const TOOL_TEMPLATES: Readonly<Record<TemplateLanguage, ToolTemplate>> = {
  c: cTemplate,
  go: goTemplate,
  python: pythonTemplate,
  rust: rustTemplate,
  js: jsTemplate,
};
