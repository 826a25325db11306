/**
 * Shell completion scripts (`toolhost completion bash|zsh|fish`), generated from commander's own
 * definitions: `completionTree` walks a program whose commands are all defined (names, nested
 * commands, options with their long and short spellings, whether they take a value, their choices,
 * and the choices of positional arguments); the render functions turn that tree into one script.
 * Nothing is listed by hand, so a new command or flag completes as soon as it is defined.
 *
 * The scripts hold only words that are safe to embed unquoted in each shell (`SAFE_WORD`); a word
 * that is not (none today) is left out rather than escaped. Descriptions (fish only) are quoted.
 */
import type { Command } from 'commander';

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** Words embedded as they are: option names, command names, choices. */
const SAFE_WORD = /^[A-Za-z0-9][A-Za-z0-9_.:+-]*$|^--?[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface CompletionOption {
  /** `--format`, `-V`: every spelling. */
  names: string[];
  takesValue: boolean;
  /** The values it accepts, when commander knows them. */
  choices: string[];
  description: string;
}

export interface CompletionNode {
  /** Command words from the program down, e.g. `['cache', 'info']`; `[]` for the program. */
  path: string[];
  description: string;
  subcommands: CompletionNode[];
  options: CompletionOption[];
  /** Choices of each positional argument, by position (`[]` where it has none; e.g. `new`'s languages first). */
  argumentChoices: string[][];
}

function safe(words: readonly (string | undefined)[]): string[] {
  return [...new Set(words.filter((word): word is string => word !== undefined && SAFE_WORD.test(word)))];
}

/** The tree of a program whose commands are defined; `-h, --help` is added where commander adds it. */
export function completionTree(command: Command, path: string[] = []): CompletionNode {
  const options: CompletionOption[] = command.options
    .filter((option) => !option.hidden)
    .map((option) => ({
      names: safe([option.long, option.short]),
      takesValue: option.required || option.optional,
      choices: safe(option.argChoices ?? []),
      description: option.description,
    }))
    .filter((option) => option.names.length > 0);
  options.push({ names: ['--help', '-h'], takesValue: false, choices: [], description: 'display help for command' });
  return {
    path,
    description: command.description(),
    subcommands: command.commands.filter((sub) => SAFE_WORD.test(sub.name())).map((sub) => completionTree(sub, [...path, sub.name()])),
    options,
    argumentChoices: command.registeredArguments.map((argument) => safe(argument.argChoices ?? [])),
  };
}

function allNodes(node: CompletionNode): CompletionNode[] {
  return [node, ...node.subcommands.flatMap(allNodes)];
}

/** A bash `case` pattern for a command path (`""` for the program). */
function pathPattern(node: CompletionNode): string {
  return `"${node.path.join(' ')}"`;
}

function renderBashFunctions(program: string, root: CompletionNode): string {
  const fn = `_${program.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const nodes = allNodes(root);
  const lines: string[] = [];
  const caseFunction = (name: string, value: (node: CompletionNode) => string[], argument = '$1'): void => {
    lines.push(`${fn}_${name}() {`, `  case "${argument}" in`);
    for (const node of nodes) {
      const words = value(node);
      if (words.length > 0) lines.push(`    ${pathPattern(node)}) echo "${words.join(' ')}" ;;`);
    }
    lines.push('  esac', '}');
  };
  caseFunction('subcommands', (node) => node.subcommands.map((sub) => sub.path.at(-1) ?? ''));
  caseFunction('options', (node) => node.options.flatMap((option) => option.names));
  caseFunction('value_options', (node) => node.options.filter((option) => option.takesValue).flatMap((option) => option.names));
  // choices of one positional: "$1" is the command path, "$2" its position (0-based)
  lines.push(`${fn}_arguments() {`, '  case "$1 $2" in');
  for (const node of nodes) {
    node.argumentChoices.forEach((choices, position) => {
      if (choices.length > 0) lines.push(`    "${[...node.path, String(position)].join(' ')}") echo "${choices.join(' ')}" ;;`);
    });
  }
  lines.push('  esac', '}');
  // choices of one option: "$1" is the command path, "$2" the option
  lines.push(`${fn}_choices() {`, '  case "$1 $2" in');
  for (const node of nodes) {
    for (const option of node.options.filter((entry) => entry.takesValue && entry.choices.length > 0)) {
      for (const name of option.names) lines.push(`    "${[...node.path, name].join(' ')}") echo "${option.choices.join(' ')}" ;;`);
    }
  }
  lines.push('  esac', '}');
  lines.push(
    `${fn}() {`,
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="" word i skip=0 position=0 words',
    '  (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  for (( i = 1; i < COMP_CWORD; i++ )); do',
    '    word="${COMP_WORDS[i]}"',
    '    if (( skip )); then skip=0; continue; fi',
    '    case "$word" in',
    '      -*=*) continue ;;',
    `      -*) [[ " $(${fn}_value_options "$path") " == *" $word "* ]] && skip=1; continue ;;`,
    '    esac',
    `    if [[ " $(${fn}_subcommands "$path") " == *" $word "* ]]; then path="\${path:+$path }$word"; position=0; else position=$(( position + 1 )); fi`,
    '  done',
    '  COMPREPLY=()',
    `  if [[ "$prev" == -* && " $(${fn}_value_options "$path") " == *" $prev "* ]]; then`,
    `    words="$(${fn}_choices "$path" "$prev")"`,
    '    [[ -n "$words" ]] && COMPREPLY=( $(compgen -W "$words" -- "$cur") )',
    '    return 0',
    '  fi',
    '  if [[ "$cur" == -* ]]; then',
    `    COMPREPLY=( $(compgen -W "$(${fn}_options "$path")" -- "$cur") )`,
    '  else',
    `    COMPREPLY=( $(compgen -W "$(${fn}_subcommands "$path") $(${fn}_arguments "$path" "$position")" -- "$cur") )`,
    '  fi',
    '  return 0',
    '}',
  );
  return lines.join('\n');
}

/** bash: `source <(toolhost completion bash)`; unknown positions fall back to file names (`-o default`). */
export function renderBash(program: string, root: CompletionNode): string {
  const fn = `_${program.replace(/[^A-Za-z0-9_]/g, '_')}`;
  return [
    `# bash completion for ${program}, generated by \`${program} completion bash\`.`,
    `# Load it now: source <(${program} completion bash)`,
    `# For every shell: ${program} completion bash > ~/.local/share/bash-completion/completions/${program}`,
    renderBashFunctions(program, root),
    `complete -o default -F ${fn} ${program}`,
    '',
  ].join('\n');
}

/** zsh: the bash functions through zsh's bashcompinit (same words, same rules). */
export function renderZsh(program: string, root: CompletionNode): string {
  const fn = `_${program.replace(/[^A-Za-z0-9_]/g, '_')}`;
  return [
    `#compdef ${program}`,
    `# zsh completion for ${program}, generated by \`${program} completion zsh\`.`,
    `# Load it now: source <(${program} completion zsh)   (after compinit)`,
    `# For every shell: ${program} completion zsh > "\${fpath[1]}/_${program}"; or the source line in ~/.zshrc after compinit`,
    'autoload -U +X bashcompinit && bashcompinit',
    renderBashFunctions(program, root),
    `complete -o default -F ${fn} ${program}`,
    '',
  ].join('\n');
}

/** A fish single-quoted string. */
function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The first sentence-ish part of a description, short enough for a completion menu. */
function shortDescription(text: string): string {
  const line = (text.split('\n', 1)[0] ?? '').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** fish: one `complete` line per command and option, conditioned on the command path seen so far. */
export function renderFish(program: string, root: CompletionNode): string {
  const lines = [`# fish completion for ${program}, generated by \`${program} completion fish\`.`, `# Install: ${program} completion fish > ~/.config/fish/completions/${program}.fish`, `complete -c ${program} -e`];
  const condition = (node: CompletionNode): string => {
    if (node.path.length === 0) return '__fish_use_subcommand';
    const seen = node.path.map((word) => `__fish_seen_subcommand_from ${word}`).join('; and ');
    const children = node.subcommands.map((sub) => sub.path.at(-1) ?? '');
    return children.length > 0 ? `${seen}; and not __fish_seen_subcommand_from ${children.join(' ')}` : seen;
  };
  for (const node of allNodes(root)) {
    const when = condition(node);
    for (const sub of node.subcommands) {
      lines.push(`complete -c ${program} -f -n ${fishQuote(when)} -a ${sub.path.at(-1) ?? ''} -d ${fishQuote(shortDescription(sub.description))}`);
    }
    const firstChoices = node.argumentChoices[0] ?? [];
    if (firstChoices.length > 0) lines.push(`complete -c ${program} -f -n ${fishQuote(when)} -a ${fishQuote(firstChoices.join(' '))}`);
    for (const option of node.options) {
      const spellings = option.names.map((name) => (name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`)).join(' ');
      const value = option.takesValue ? (option.choices.length > 0 ? ` -x -a ${fishQuote(option.choices.join(' '))}` : ' -r') : '';
      // the program's own options (--debug, --version) are accepted after any command too
      const scope = node.path.length === 0 ? '' : ` -n ${fishQuote(when)}`;
      lines.push(`complete -c ${program}${scope} ${spellings}${value} -d ${fishQuote(shortDescription(option.description))}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function renderCompletion(shell: CompletionShell, program: string, root: CompletionNode): string {
  switch (shell) {
    case 'bash':
      return renderBash(program, root);
    case 'zsh':
      return renderZsh(program, root);
    case 'fish':
      return renderFish(program, root);
  }
}
