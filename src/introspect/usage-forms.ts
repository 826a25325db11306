/**
 * What a help's several usage forms of one command say about its positionals, beyond the first
 * form's own (usage.ts parses one form): a positional another form runs without is optional, one a
 * later form repeats is variadic, a later form may add optional ones or name a mode's argument; a
 * synopsis line may give them where the usage form gives none. Each function takes the positionals so
 * far and returns the corrected list (parse-help.ts traces each as a reader of the usage forms).
 */
import { parseUsageForm, programBaseName, type UsageForm } from './usage.ts';

/** A word of a synopsis line that names a value: `FILTER`, `[FILES...]`, `<path>`, `[-o FILE]`, `[OPTIONS]`. */
const SYNOPSIS_WORD = /^(\[[^\]]*\]|<[^>]+>|[A-Z][A-Z0-9_]*|-{1,2}[\w-]+(=\S+)?|\|)(\.{2,3})?$/;

/**
 * `Usage: gojq [OPTIONS]` + `Synopsis:  gojq [OPTIONS] FILTER [FILES...]`: positionals from the first
 * synopsis or example line that invokes the program with placeholders only (an example with real
 * values, `gojq '.foo' data.json`, names nothing and is skipped).
 */
export function synopsisPositionals(lines: readonly string[], program: string, takesValue: (flag: string) => boolean): UsageForm['positionals'] {
  const base = programBaseName(program);
  for (const raw of lines) {
    const line = raw.replace(/^[$%>]\s+/, '');
    const words = line.split(/\s+/);
    if (programBaseName(words[0] ?? '') !== base) continue;
    // brackets with spaces inside are split apart by the whitespace split: rejoin on the raw text
    const rest = line.slice((words[0] ?? '').length).trim();
    const tokens = rest.match(/\[[^\]]*\](?:\.{2,3})?|<[^>]+>(?:\.{2,3})?|\S+/g) ?? [];
    if (tokens.length === 0 || !tokens.every((token) => SYNOPSIS_WORD.test(token))) continue;
    const positionals = parseUsageForm(line, takesValue).positionals;
    if (positionals.length > 0) return positionals;
  }
  return [];
}

/**
 * A query that prints a listing and exits, like `--help`: num2words `num2words --list-languages` beside
 * `num2words [options] <number>` is no run without the number.
 */
const LISTING_QUERY = /(^|[\s[(|])--list(?:-[a-z][\w-]{0,30})?(?=[\s\])|]|$)/g;

/** A usage form that gives an option besides help and version (`prog --version`, `prog [OPTION]` do not count). */
function formRuns(text: string): boolean {
  const rest = text
    .replace(/^\S+/, '')
    // (killall `-l, --list`, `-V, --version`: a short spelling paired by a comma with a long one is that option; the long one decides)
    .replace(/(^|\s)-[A-Za-z0-9],\s{0,4}(?=--[a-z])/g, '$1')
    .replace(LISTING_QUERY, ' ')
    .replace(/--help\b|--version\b|(^|[\s[(|])-[hV](?=[\s\])|]|$)/g, ' ')
    .replace(/\b(OPTIONS?|options?|flags?)\b/g, ' ');
  return /-[A-Za-z0-9]/.test(rest);
}

/**
 * rougify `usage: rougify highlight <filename> [options...]` / `rougify highlight [options...]`: a
 * later form writing only the options placeholder in brackets runs with options alone.
 */
const OPTIONS_ONLY_FORM = /^\S+(?:\s+[a-z][\w-]*)*\s+\[(?:options|OPTIONS|flags)(?:\.{3})?\]\s*$/;

/**
 * goose `Usage: goose [OPTIONS] DRIVER DBSTRING COMMAND` / `Usage: goose [OPTIONS] COMMAND`: a form
 * whose only arguments are required command placeholders runs that command without the first form's
 * others (cobra's optional `vhs [command]` beside `vhs <file>` names the help's commands, no other mode).
 */
function runsCommand(form: UsageForm): boolean {
  return form.positionals.length > 0 && form.positionals.every((positional) => positional.required && COMMAND_PLACEHOLDER.test(positional.name));
}

/** `$ prog [--help | -h | --version | -v]`, `prog --version`: a usage form of nothing but help and version spellings. */
function asksOnlyHelpOrVersion(text: string): boolean {
  const rest = text.trim().replace(/^[$%>]\s+/, '').replace(/^\S+/, '');
  return /-/.test(rest) && /^[\s[\]()|]*$/.test(rest.replace(/--help\b|--version\b|(^|[\s[(|])-[hVv](?=[\s\])|]|$)/g, ' '));
}

/** Whether a form of the program with no positionals does more than ask for help or the version (licensecheck `[ --list-licenses | … ]`). */
export function runsWithoutPositionals(first: UsageForm, forms: readonly UsageForm[], texts: readonly string[]): boolean {
  return forms.some((form, index) => form.program === first.program && form.commandPath.join(' ') === first.commandPath.join(' ') && form.positionals.length === 0 && !asksOnlyHelpOrVersion(texts[index] ?? ''));
}

/**
 * docopt prints several forms: a positional the first form requires is optional when another form
 * of the same command runs with options only (`prog [options] PATH...` and
 * `prog (--doctest | --testsuite=DIR)`).
 */
export function optionalWhereAnotherFormRunsWithout(positionals: UsageForm['positionals'], first: UsageForm, texts: readonly string[], forms: readonly UsageForm[]): UsageForm['positionals'] {
  const path = first.commandPath.join(' ');
  // only a form with options and no positionals of its own (`(--doctest | --testsuite=DIR)`)
  const others = forms.filter(
    (form, index) => form !== first && form.program === first.program && form.commandPath.join(' ') === path && ((form.positionals.length === 0 && !givesStdinDash(texts[index] ?? '') && (formRuns(texts[index] ?? '') || OPTIONS_ONLY_FORM.test(texts[index] ?? ''))) || runsCommand(form)),
  );
  const shorter = formsEndingEarlier(positionals, first, texts, forms);
  return positionals.map((positional, index) =>
    positional.required && (others.some((form) => !form.positionals.some((other) => other.name === positional.name)) || index >= shorter) ? { ...positional, required: false } : positional,
  );
}

/** A word of a usage form that stands for standard input in an argument's place (`prog - <out>`). */
const STDIN_DASH = /(?:^|\s)-(?=\s|$)/;

/** Whether a form writes a lone `-` after the program (standard input in the first argument's place). */
function givesStdinDash(text: string): boolean {
  return STDIN_DASH.test(text.trim().replace(/^[$%>]\s+/, '').replace(/^\S+/, ''));
}

/**
 * resvg `resvg [OPTIONS] <in-svg> <out-png>` / `resvg [OPTIONS] <in-svg> -c` / `resvg [OPTIONS] - <out-png>` /
 * `resvg [OPTIONS] - -c`: a lone `-` fills the first argument's slot (standard input); a form of the
 * same command that writes the first form's arguments only up to some point and gives an option
 * instead of the rest (`-c`: to stdout) leaves the rest out. Returns the index from which the first
 * form's arguments may be left out (their count when none may).
 */
function formsEndingEarlier(positionals: UsageForm['positionals'], first: UsageForm, texts: readonly string[], forms: readonly UsageForm[]): number {
  const path = first.commandPath.join(' ');
  let from = positionals.length;
  forms.forEach((form, index) => {
    const text = texts[index] ?? '';
    if (form === first || form.program !== first.program || form.commandPath.join(' ') !== path || !formRuns(text)) return;
    // (each written alike: GNU ln's `-t DIRECTORY TARGET...` repeats TARGET, another shape than the first form's one TARGET)
    const written = [...(givesStdinDash(text) ? [positionals[0]] : []), ...form.positionals].map((positional) => `${positional?.name ?? ''}${positional?.variadic === true ? '...' : ''}`);
    if (written.length === 0 || written.length >= positionals.length || !written.every((name, at) => `${positionals[at]?.name ?? ''}${positionals[at]?.variadic === true ? '...' : ''}` === name)) return;
    from = Math.min(from, written.length);
  });
  return from;
}

/** Whether `longer` ends with the positionals of `tail`, by name and in order. */
function endsWithAll(longer: UsageForm['positionals'], tail: UsageForm['positionals']): boolean {
  const offset = longer.length - tail.length;
  return offset >= 0 && tail.every((positional, index) => longer[offset + index]?.name === positional.name);
}

/**
 * GNU od: `od [OPTION]... [FILE]...` / `or: od … [FILE] [[+]OFFSET[.][b]]` / `or: od --traditional
 * … [FILE] [[+]OFFSET[.][b] [+][LABEL][.][b]]`: a later form of the same command that starts with
 * the first form's positionals and goes on with optional ones adds those, optional.
 */
export function extendedByOtherForms(positionals: UsageForm['positionals'], first: UsageForm, forms: readonly UsageForm[], emptyFormRuns = true): UsageForm['positionals'] {
  const path = first.commandPath.join(' ');
  if (positionals.length === 0) {
    // util-linux findmnt: `findmnt [options]` then `findmnt [options] <device> <mountpoint>`: the first
    // form runs without any, so the most a later form of the same command shows are all optional
    // serve `$ serve folder_name` beside `$ serve [-l listen_uri] [directory]`: a form whose only
    // positionals are bare lower-case words right after the program may be an example with a literal
    // value; the forms that write theirs as placeholders decide
    const literalOnly = (form: UsageForm): boolean => form.positionals.length > 0 && form.positionals.every((positional) => form.leadingLiterals.includes(positional.name));
    const fullest = forms
      .filter((form) => form !== first && form.program === first.program && form.commandPath.join(' ') === path && !literalOnly(form))
      .reduce<UsageForm | null>((best, form) => (form.positionals.length > (best?.positionals.length ?? 0) ? form : best), null);
    if (fullest === null) return positionals;
    // …when the forms agree (git branch's forms are modes, each with positionals of its own: none then)
    const names = fullest.positionals.map((positional) => positional.name);
    const agrees = (form: UsageForm): boolean =>
      form.program !== first.program || literalOnly(form) || form.positionals.every((positional) => positional.name.split('|').every((name) => names.includes(name)));
    // (npm-run-all `run-p [--help | -h | --version | -v]` then `run-p [OPTIONS] <tasks>`: a form that
    // only asks for help or the version runs nothing, so when no other form goes without positionals
    // the later form says what is required)
    return forms.every(agrees) ? fullest.positionals.map((positional) => ({ ...positional, required: emptyFormRuns ? false : positional.required })) : positionals;
  }
  const result = [...positionals];
  for (const form of forms) {
    if (form === first || form.program !== first.program || form.commandPath.join(' ') !== path) continue;
    // the form repeats the positionals found so far, in order, then goes on with optional ones (jq's
    // `--args <jq filter> [strings...]` puts another in the place of `[file...]`: an alternative)
    const shared = Math.min(form.positionals.length, result.length);
    // gocryptfs `-init|-passwd|-info [OPTIONS] CIPHERDIR` / `or gocryptfs [OPTIONS] CIPHERDIR MOUNTPOINT`:
    // when the first form is a mode its required options select, one the later (plain) form requires
    // is optional too, since the first form runs without it (cp's `SOURCE DEST DIRECTORY` adds nothing)
    const firstIsMode = first.requiredOptions.length > 0 && form.requiredOptions.length === 0;
    if (firstIsMode && result.length === positionals.length && shared > 0 && form.positionals.length > shared && endsWithAll(form.positionals, result)) {
      // gawk `-f progfile [--] file ...` / `[--] 'program' file ...`: the plain form puts in front what
      // the mode's option stands for (the program text): optional, before the first form's positionals
      result.unshift(...form.positionals.slice(0, form.positionals.length - shared).map((positional) => ({ ...positional, required: false })));
      continue;
    }
    if (shared === 0 || form.positionals.slice(0, shared).some((positional, index) => positional.name !== result[index]?.name)) continue;
    for (const positional of form.positionals.slice(shared)) {
      if (positional.required && !firstIsMode) break;
      result.push({ ...positional, required: false });
    }
  }
  return result;
}

/**
 * postcss `postcss [input.css] [OPTIONS] …` then `postcss <input.css>... [OPTIONS] --dir <dir>`: a
 * positional another form of the same command writes repeated (`...`) under the same name is
 * variadic when the first form leaves it optional (GNU ln `TARGET` then `TARGET... DIRECTORY` are modes);
 * whether it is required stays the first form's.
 */
export function variadicInOtherForms(positionals: UsageForm['positionals'], first: UsageForm, forms: readonly UsageForm[]): UsageForm['positionals'] {
  const path = first.commandPath.join(' ');
  const same = forms.filter((form) => form !== first && form.program === first.program && form.commandPath.join(' ') === path);
  return positionals.map((positional) =>
    !positional.variadic && !positional.required && same.some((form) => form.positionals.some((other) => other.variadic && other.name === positional.name)) ? { ...positional, variadic: true } : positional,
  );
}

/**
 * docopt cheat `cheat <cheatsheet>` / `cheat -s <keyword>` with `-s --search` listed as a flag: a form
 * of the same command whose placeholder follows a listed flag (so it is no value of it) names an argument
 * of that mode; the first form leaves it out, so it is optional. (A placeholder after an option taking a
 * value is that option's, and the form's parse already leaves it out.)
 */
export function argumentsOfFlagModes(positionals: UsageForm['positionals'], first: UsageForm, forms: readonly UsageForm[], texts: readonly string[], isFlag: (spelling: string) => boolean): UsageForm['positionals'] {
  const path = first.commandPath.join(' ');
  const added: UsageForm['positionals'] = [];
  forms.forEach((form, index) => {
    if (form === first || form.program !== first.program || form.commandPath.join(' ') !== path) return;
    const words = (texts[index] ?? '').trim().split(/\s+/).slice(0, 40);
    for (const positional of form.positionals) {
      if (positionals.some((other) => other.name === positional.name) || added.some((other) => other.name === positional.name)) continue;
      const at = words.findIndex((word) => word === `<${positional.name}>`);
      const before = words[at - 1] ?? '';
      if (at > 0 && /^-{1,2}[A-Za-z0-9][\w-]{0,40}$/.test(before) && isFlag(before)) added.push({ ...positional, required: false });
    }
  });
  return added.length === 0 ? positionals : [...positionals, ...added];
}

export const COMMAND_PLACEHOLDER = /^(command|cmd|subcommand)$/i;

/**
 * lz4 `lz4 [arg] [input] [output]` over `Arguments :` titling its options (`-1  : Fast compression`):
 * a help that calls its options arguments writes `[arg]` for them, not for a positional.
 */
export function optionsCalledArguments(lines: readonly string[]): boolean {
  // (templ `Args:` over `-path <path>` …: the short title too)
  const title = lines.findIndex((line) => /^\s*(?:args?|arguments)\s*:\s*$/i.test(line));
  if (title === -1) return false;
  const next = lines.slice(title + 1).find((line) => line.trim().length > 0) ?? '';
  return /^\s*-{1,2}[A-Za-z0-9#]/.test(next);
}

export const ARGUMENTS_PLACEHOLDER = /^(?:arg|args|arguments?)$/i;
