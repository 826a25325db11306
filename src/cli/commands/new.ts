/** `toolhost new <language> <name>`: scaffolds a wasm tool project that follows the tool contract. */
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Argument, Command } from 'commander';
import type { CommandContext } from '../command-context.ts';
import { selfInvocation, shellPrefix } from '../invocation.ts';
import { EXIT_OK, painterFor, usageError, writeWarning } from '../output.ts';
import { packageRoot } from '../../package-root.ts';
import { TEMPLATE_LANGUAGES, TOOL_TEMPLATES, type TemplateLanguage } from '../templates/index.ts';

/** Project names become file names and the tool name: keep them valid as both. */
export const PROJECT_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

interface NewFlags {
  dir?: string;
  force?: boolean;
}

export function defineNewCommand(command: Command, context: CommandContext): Command {
  command
    .addArgument(new Argument('<language>', 'language of the project').choices(TEMPLATE_LANGUAGES))
    .argument('<name>', 'tool name: letters, digits, "_" and "-", starting with a letter')
    .option('--dir <dir>', 'where to create the project (default: ./<name>)')
    .option('--force', 'write into an existing non-empty directory');
  command.addHelpText('after', ['', 'Examples:', '  toolhost new c wordcount', '  toolhost new go fetch_title --dir tools/fetch_title'].join('\n'));
  command.action(
    context.action(async (language: TemplateLanguage, name: string, flags: NewFlags) => {
      if (!PROJECT_NAME_PATTERN.test(name)) {
        throw usageError(`invalid tool name "${name}"`, 'use letters, digits, "_" and "-", starting with a letter, at most 64 characters');
      }
      const { io } = context;
      const directory = resolve(io.cwd, flags.dir ?? name);
      if (existsSync(directory) && readdirSync(directory).length > 0 && !flags.force) {
        throw usageError(`${relative(io.cwd, directory) || '.'} already exists and is not empty`, 'choose another --dir, or pass --force to write into it');
      }
      const template = TOOL_TEMPLATES[language];
      const files = template.files(name);
      for (const file of files) {
        const target = join(directory, ...file.path.split('/'));
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, file.content);
        if (file.executable) chmodSync(target, 0o755);
      }
      const paint = painterFor(io.stdout, io.env);
      const shown = relative(io.cwd, directory) || '.';
      io.stdout.write(`${paint('green', 'created')} ${shown}/ (${language}, ${template.toolchain})\n`);
      for (const file of files) io.stdout.write(`  ${file.path}\n`);
      const setup = template.setupCommand === undefined ? '' : `  ${template.setupCommand}   # once\n`;
      io.stdout.write(`\nnext:\n  cd ${shown}\n${setup}  ${template.buildCommand}\n  toolhost check ${name}.wasm\n`);
      const invocation = selfInvocation(io.env);
      if (!invocation.onPath) {
        writeWarning(io, `\`toolhost\` is not on PATH: run \`npm install -g ${packageRoot()}\` once, or use \`${shellPrefix(invocation)}\` where the steps say \`toolhost\``);
      }
      return EXIT_OK;
    }),
  );
  return command;
}
