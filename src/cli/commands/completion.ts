/** `toolhost completion <bash|zsh|fish>`: prints a shell completion script generated from the program's own definitions. */
import { Argument, Command } from 'commander';
import type { CommandContext } from '../command-context.ts';
import { COMPLETION_SHELLS, completionTree, renderCompletion, type CompletionShell } from '../completion.ts';
import { buildProgram } from '../main.ts';
import { EXIT_OK } from '../output.ts';

export function defineCompletionCommand(command: Command, context: CommandContext): Command {
  command.addArgument(new Argument('<shell>', 'the shell to complete for').choices(COMPLETION_SHELLS));
  command.addHelpText(
    'after',
    [
      '',
      'Examples:',
      '  source <(toolhost completion bash)                                      # this shell',
      '  toolhost completion bash > ~/.local/share/bash-completion/completions/toolhost',
      '  toolhost completion zsh > "${fpath[1]}/_toolhost"                      # after compinit',
      '  toolhost completion fish > ~/.config/fish/completions/toolhost.fish',
    ].join('\n'),
  );
  command.action(
    context.action(async (shell: CompletionShell) => {
      // Every command fully defined (not only the one being run), so each one's options are there to walk.
      const program = await buildProgram(context, { defineAll: true });
      context.io.stdout.write(renderCompletion(shell, program.name(), completionTree(program)));
      return EXIT_OK;
    }),
  );
  return command;
}
