/**
 * The program's name as the help writes it: the usage forms' program and the subcommand path they
 * all name (`git clone`), else the help's first line or the program its examples run, else the
 * file name; and a headline that is the usage form itself (OptionParser's `rake [-f rakefile] …`).
 */
import { programBaseName, type UsageForm } from './usage.ts';

/**
 * The program and, when every usage form names the same subcommand path, that path (`git clone`).
 * `oclif generate NAME` has a placeholder after `generate`, but its commands section lists
 * `generate command`, `generate hook`: that shared first word is the path too.
 */
export function programNameOf(forms: readonly UsageForm[], program: string, commandPrefix: string | null): string {
  const withProgram = forms.filter((form) => form.program !== null);
  const first = withProgram[0];
  const listedPath = commandPrefix !== null && first !== undefined && first.commandPath.length === 0 && first.leadingLiterals[0] === commandPrefix ? [commandPrefix] : [];
  const path = first !== undefined && first.commandPath.length > 0 ? first.commandPath : listedPath;
  // `git describe <blob>` has no command path of its own (a placeholder follows), but starts with it
  const agrees = (form: UsageForm): boolean =>
    form.commandPath.join(' ') === path.join(' ') || (form.commandPath.length === 0 && form.leadingLiterals.slice(0, path.length).join(' ') === path.join(' '));
  const agreed = path.length > 0 && withProgram.every(agrees);
  return agreed ? [programBaseName(program), ...path].join(' ') : programBaseName(program);
}



/**
 * ffuf's examples: `ffuf -w wordlist.txt -u https://…` twice or more under `EXAMPLE USAGE:`: the
 * lower-case word that starts example lines and is followed by an option, when one word does so at
 * least twice and no other does.
 */
function exampleProgramWord(synopsisLines: readonly string[]): string | null {
  const words = synopsisLines.map((line) => /^([a-z][\w.-]{0,63}) -{1,2}[A-Za-z]/.exec(line.replace(/^[$%>]\s+/, ''))?.[1]).filter((word): word is string => word !== undefined);
  const distinct = new Set(words);
  return words.length >= 2 && distinct.size === 1 ? (words[0] ?? null) : null;
}

export function fallbackProgramName(lines: readonly string[], fileName: string | undefined, synopsisLines: readonly string[] = []): string | null {
  const firstLine = lines.find((line) => line.trim().length > 0)?.trim() ?? '';
  // (not the title of a form naming no program: bpaf `Usage: [-c=<./.oxlintrc.json>] [PATH]...`)
  // (nor a section's title: Pod::Usage xml_grep and yargs mjml open with `Options:`; the file names the program then)
  // (nodemon opens with `Configuration` over indented option lines: a one-word title of its own too)
  const firstIndex = lines.findIndex((line) => line.trim().length > 0);
  const titleOverOptions = /^[A-Z][a-z]{2,30}$/.test(firstLine) && /^\s+-/.test(lines[firstIndex + 1] ?? '');
  const sectionTitle = /^(?:options|arguments|flags|switches|parameters|commands)\s*:?$/i.test(firstLine) || titleOverOptions;
  // (license-checker opens with `license-checker@25.0.1`: a package name with its version names the program)
  // (0x opens with `0x 6.0.0`: a name opening with digits, then its version or nothing, names it too)
  const firstWord = /^usage:/i.test(firstLine) || sectionTitle ? undefined : (/^([A-Za-z][\w.-]{0,63})(?=[\s:]|@v?\d+\.\d|$)/.exec(firstLine) ?? /^(\d{1,4}[A-Za-z][\w.-]{0,60})(?=\s+v?\d+\.\d+(?:\.\d+)?$|@v?\d+\.\d|$)/.exec(firstLine))?.[1];
  // `Fuzz Faster U Fool - v1.1.0`: a title in capitals over examples invoking `ffuf`: the examples name the program
  const example = firstWord !== undefined && /^[A-Z][a-z]/.test(firstWord) ? exampleProgramWord(synopsisLines) : null;
  if (example !== null) return example;
  if (firstWord !== undefined) return programBaseName(firstWord);
  return fileName ? programBaseName(fileName) : null;
}

/** A line drawn of dashes, equals signs or underscores (maybe spaced): a rule, no text. */
const RULE_LINE = /^\s*(?:[-=_*] ?){3,}\s*$/;

/**
 * OptionParser (rake) opens with its form and no `Usage:` title: `rake [-f rakefile] {options}
 * targets...`. A first line flush left of a program word and then only bracket groups and names,
 * one of them an option group, is the usage form.
 */
export function headlineForm(lines: readonly string[]): string | null {
  // (certbot opens with a rule of dashes, then its form indented: `  certbot [SUBCOMMAND] [options] [-d DOMAIN] ...`)
  const first = (lines.find((line) => line.trim().length > 0 && !RULE_LINE.test(line)) ?? '').trim();
  const form = /^[a-z][\w.-]{0,40}((?:\s+(?:\[[^[\]]{1,80}\]|\{[^{}]{1,40}\}|<[^<>]{1,40}>|[A-Za-z][\w-]{0,40}(?:\.{3})?|\.{3})){1,20})\s*$/.exec(first);
  // …and no English function word outside the brackets (`tail pods and containers [-x] from k8s` is prose)
  const outside = (form?.[1] ?? '').replace(/\[[^[\]]*\]|\{[^{}]*\}|<[^<>]*>/g, ' ');
  if (/(^|\s)(and|or|the|an?|to|from|of|for|with|by|in|on|is|are|this|that)(\s|$)/i.test(outside)) return null;
  return form !== null && /\[-/.test(form[1] ?? '') ? first.trim() : null;
}
