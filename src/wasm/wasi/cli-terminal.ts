/**
 * wasi:cli/terminal-input, terminal-output, terminal-stdin, terminal-stdout, terminal-stderr
 * (0.2.0–0.2.3): no stream is a terminal, so every getter returns none.
 */
export class TerminalInput {}
export class TerminalOutput {}

const none = (): undefined => undefined;

export const terminalInputImports = Object.freeze({ TerminalInput });
export const terminalOutputImports = Object.freeze({ TerminalOutput });
export const terminalStdinImports = Object.freeze({ getTerminalStdin: none });
export const terminalStdoutImports = Object.freeze({ getTerminalStdout: none });
export const terminalStderrImports = Object.freeze({ getTerminalStderr: none });
