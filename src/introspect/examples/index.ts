/** Example calls of a wasm tool: read from its help, mapped through its spec, checked against its schema. */
export { argvToInput } from './argv-to-input.ts';
export { MAX_HELP_EXAMPLES, readHelpExamples, withHelpExamples, type HelpExampleOptions } from './help-examples.ts';
export { inputExamplesOf, MAX_EXAMPLE_INPUT_CHARS, MAX_INPUT_EXAMPLES, withInputExamples, type ToolInputExample } from './input-examples.ts';
export { shellWords } from './shell-words.ts';
