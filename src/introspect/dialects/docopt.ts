/**
 * The docopt dialect (fingerprint `docopt`: `Usage:` over several forms, `-h --help  Show this
 * screen.`): docopt reads a bare lower-case word of a form as a command, so several forms starting
 * with different words (`ship new`, `mine set`) or a required group of bare words right after the
 * program (`sumy (luhn | edmundson | lsa)`) name subcommands, not positionals.
 */
import type { UsageForm } from '../usage.ts';

/** The command words docopt forms name: from the forms' first words, else from a leading group. */
export function docoptCommandWords(forms: readonly UsageForm[], usageForms: readonly string[]): string[] {
  const words = formCommandWords(forms);
  return words.length > 0 ? words : docoptCommandGroupWords(usageForms);
}

/** docopt: several usage forms that start with different command words (`ship new`, `mine set`). */
function formCommandWords(forms: readonly UsageForm[]): string[] {
  const commandWordOf = (form: UsageForm): string | undefined => form.commandPath[0] ?? form.leadingLiterals[0];
  const words = forms.map(commandWordOf).filter((word): word is string => word !== undefined);
  return forms.length >= 2 && words.length >= 2 && new Set(words).size >= 2 ? [...new Set(words)] : [];
}

/**
 * docopt sumy `sumy (luhn | edmundson | lsa) [--length=<length>]`: a required group of bare lower-case
 * words right after the program is a choice of commands (docopt reads a bare word as a command), no
 * positional named `luhn|edmundson|lsa`.
 */
function docoptCommandGroupWords(usageForms: readonly string[]): string[] {
  const words = usageForms.flatMap((form) => {
    const group = /^\S+\s+\(\s*([a-z][a-z0-9-]{0,30}(?:\s*\|\s*[a-z][a-z0-9-]{0,30}){1,30})\s*\)(?=\s|$)/.exec(form.trim());
    return group === null ? [] : (group[1] ?? '').split(/\s*\|\s*/);
  });
  return [...new Set(words)];
}
