/**
 * Value-taking read from descriptions, for helps whose format shows none: hand-formatted helps
 * (mocha's, over Node's `util.parseArgs`) print `--reporter, -R   Specify reporter to use` with no
 * placeholder for any option. When not one option of a help shows a placeholder, type tag or
 * choices, the format says nothing either way, and the description is all there is: a noun phrase
 * naming the value (`Path to config file`, `Number of concurrent jobs`), `Specify …`, `this string`,
 * a unit (`(in milliseconds)`), a `<k=v>` pattern or globs say a value is taken.
 */
import { extractDescriptionFacts } from './annotations.ts';
import { listedChoices, namedValuesChoices } from './listed-choices.ts';
import { describesTakenValueIn } from './evidence-defaults.ts';
import { isOpenValueSet } from './open-value-set.ts';
import type { CliOption } from './spec.ts';
import type { Claimer } from './reader/claims.ts';
import { claimTakesValue } from './reader/option-claims.ts';

const VALUE_CUES: readonly RegExp[] = [
  // a noun phrase naming the value
  // (sade `The name of a database client driver`: after an article too; gocryptfs `Custom path to config file`;
  // serve `Optional path to an SSL/TLS certificate`)
  // (hey `Timeout for each request in seconds`, `Duration of application to send requests`: a span of time)
  /^(?:(?:an?|the)\s+)?(?:(?:maximum|minimum|max|min|custom|alternate|alternative|optional)\s+)?(?:paths?|list|number|names?|size|amount|location|address|url|port|host|hostname|username|passphrase|password|token|timeout|duration|interval|delay)\s+(?:to|of|for)\b/i,
  // (round 17: peco `initial value for query`, `position of the initial index`: a value, a starting one, or a place in a sequence)
  /^(?:(?:an?|the)\s+)?(?:(?:initial|starting)\s+)?(?:value|position|index|offset)\s+(?:of|for)\b/i,
  // xo: `Reporter to use`: a short noun phrase that is the whole sentence (`Attempt to use HTTP/2` goes on)
  /^(?:(?:an?|the)\s+)?[\w-]+(?:\s+[\w-]+)?\s+to\s+use\s*(?:[.([]|$)/i,
  // …freeze `Theme to use for syntax highlighting`, `Font size to use for code`: the purpose goes on after `for`
  /^(?:(?:an?|the)\s+)?[\w-]+(?:\s+[\w-]+)?\s+to\s+use\s+for\b/i,
  // freeze `Width of terminal window.`, `Corner radius of window.`, `Language of code file.`: a dimension or
  // language of something (one modifier word before it)
  // (`Line height relative to font size.`)
  /^(?:[\w-]+\s+)?(?:width|height|length|depth|radius|language)\s+(?:of|relative\s+to)\b/i,
  // sade sirv: `Any URL pattern(s) to ignore`
  /^(?:any\s+)?(?:url|file|path|glob|regexp?|name)\s+patterns?(?:\(s\))?\s+to\b/i,
  /^(?:file|directory|url|port|host)\b/i,
  // sade svelte-package: `Input directory`: a short noun phrase that ends naming one file or directory (`Sort test files` acts on them)
  // (freeze `Base configuration file or template.`: or one other kind of thing; `Font file to embed.`: a file for a purpose)
  // (gocryptfs `Initialize encrypted directory`: a verb in -ize/-ise acts on it; nuxi `Override existing
  // directory`: an existing one is acted on)
  // (wait-on `js or json config file, useful for http(s) options`: two kinds of it joined by `or`, then a comma clause)
  /^(?![a-z]{3,}i[sz]e\s)(?![\w-]+\s+existing\s)(?:[\w-]+\s+){1,2}(?:file|directory|folder|path)(?:\s+or\s+[\w-]+)?\.?$/i,
  /^[a-z]{2,10}\s+or\s+[a-z]{2,10}\s+(?:[\w-]+\s+)?(?:file|directory|folder|path)(?:,\s|\.?$)/i,
  /^(?:[\w-]+\s+)?(?:file|directory|folder)\s+to\s+[a-z]+\.?$/i,
  // meow critical `RegExp, @type or selector to ignore`: the whole description a list of kinds of
  // value, then what the option does with it (as `Reporter to use`)
  /^[\w@-]+(?:,\s*[\w@-]+)*\s+or\s+[\w@-]+\s+to\s+[a-z]+\.?$/i,
  // …`Directories/Urls where the inliner should start looking`: places named, then a clause saying where
  /^(?:[\w-]+\/)*(?:director(?:y|ies)|folders?|paths?|urls?|files?)(?:\/[\w-]+)*\s+(?:where|in\s+which|from\s+which)\b/i,
  // …`Your CSS Files (optional)`, `Your base directory`: the user's own files or places, which the value names
  /^your\s+(?:[\w-]+\s+){0,2}(?:files?|director(?:y|ies)|folders?|paths?|urls?)\b/i,
  // …`Pass dimensions e.g. 1300x900`: an example of the value that is a width by a height
  /\be\.?g\.?,?\s+\d{1,5}x\d{1,5}\b/i,
  // sade uvu: `Additional module(s) to preload`: a noun counted with `(s)` that the option is for
  /^(?:(?:any|additional|extra)\s+)?[\w-]+\(s\)\s+to\b/i,
  // …microbundle `Entry module(s)`: a short noun phrase counted with `(s)` that is the whole description
  /^(?:[\w-]+\s+)?[\w-]+\(s\)\.?$/i,
  // depcheck (yargs, tags only on booleans): `A config file to be parsed`, `Comma separated package list to ignore`
  // (browserify `A module name or file to bundle.require()`, `An entry point of your app`: a name, a module or an entry point too;
  // electron-packager `the dir to put the app into`: a dir as a directory)
  // (csvtojson `The format to be converted to.`: a format)
  /^(?:an?|the)\s+(?:[\w-]+\s+)?(?:file|directory|dir|path|url|list|module|name|entry\s+point|format)\b(?!\s+(?:is|are|was|will)\b)/i,
  // meow conventional-changelog: `A filepath of where your package.json is located`
  /^(?:an?|the)\s+(?:[\w-]+\s+)?(?:file-?path|file-?name|dir-?path)\b(?!\s+(?:is|are|was|will)\b)/i,
  // …`Tag prefix to consider when reading the tags`: a prefix or suffix to use is a value
  /^(?:[\w-]+\s+)?(?:prefix|suffix)\s+(?:to|of|for)\b/i,
  // …`Generate a changelog scoped to a specific directory`, `for a specific lerna package`: the one to use is named
  /\b(?:for|to|in|from)\s+a\s+specific\s+(?:[\w-]+\s+)?(?:directory|dir|folder|path|file|package|project|workspace)\b/i,
  /^comma[- ]separated\b/i,
  // gocryptfs `Unmount automatically after specified idle duration`, `Create control socket at location`,
  // `Read password from plain text file(s)`: the thing specified, the location, the file read from
  // (freeze `Wrap lines at a specific width`)
  // (slop pry `Only load specified plugin (and no others).`, `Disable a specific plugin.`: the verb
  // opening the description acts on the one specified)
  // (cabextract `extract only files that match the given pattern`, `assume non-UTF8 filenames have the
  // given encoding`: any verb before `the given`; browserify `Generate a UMD bundle for the supplied
  // export name.`: supplied or provided too; terraform `By default, only the given directory … is
  // processed`: `only` is no verb, the default is described)
  /(?:\b(?:at|after|for|to|with|from|in)|^(?:only\s+)?[a-z]+)\s+(?:the\s+|a\s+)?(?:specified|given|supplied|provided)\s+[a-z]|\b(?!only\s)[a-z]{2,}\s+the\s+given\s+[a-z]/i,
  // (nodemon `ignore specific files or directories`: the verb's object, specific things, unnamed)
  /(?:\bat|^(?:only\s+)?[a-z]+)\s+(?:a\s+specific\s+[a-z]|specific\s+[a-z]+s\b)/i,
  // nodemon `extensions to look for, ie. "js,pug,hbs"`: an example of the value, a quoted comma-joined list
  /\b(?:i\.?e|e\.?g)\.?,?\s+"[\w.-]{1,20}(?:,[\w.-]{1,20}){1,10}"/i,
  // browserify `Use a transform module on top-level files.`, `Use a transform command …`: one module,
  // plugin, script or command to use, which the value names (`Use a pager`, `Use a long listing` name none)
  /^use\s+an?\s+(?:[\w-]+\s+)?(?:module|plugin|template|script|command)\b/i,
  // markdown-toc `Append a string to the end of the TOC`: a verb whose object is a kind of value (`Add a
  // newline` names a thing the program writes, no value)
  /^[a-z]+\s+an?\s+(?:string|value|number|regexp?|pattern)\b(?!\s+(?:is|are|was|will)\b)/i,
  // (round 17: js-beautify `--type   [js|css|html] ["js"]`: the description opens with the values in
  // brackets, joined by bars; `[a|b][,preserve-inline]`, a pattern glued on, is left alone, as the
  // evidence reader would take its list for a closed set)
  /^\[[a-z0-9][\w.-]{0,30}(?:\|[a-z0-9][\w.-]{0,30}){1,30}\](?=\s)/,
  // (round 17: js-beautify `Indentation character [" "]`: a quoted value in brackets closing the description is
  // its default, and a flag has none)
  /\[\s*"[^"\n]{0,40}"\s*\]\s*$/,
  // (round 17: peco `use a prefix instead of changing line color`: a prefix, suffix or separator the value gives)
  /^use\s+an?\s+(?:[\w-]+\s+)?(?:prefix|suffix|separator|delimiter)\b/i,
  // license-checker `to add a custom Format file in JSON`: a custom one of a kind, which the value names
  /\ban?\s+custom\s+(?:[\w-]+\s+)?(?:file|path|directory|module)\b/i,
  // pry `A line of code to execute in context`, ruby `one line of script`: the code itself is the value
  /^(?:an?|one|the)\s+(?:lines?|snippet|piece|string)\s+of\s+(?:code|script)\b/i,
  // freeze `Lines to capture (start,end).`: the value's form, its parts named in parentheses
  /\([a-z]{1,12}(?:,[a-z]{1,12}){1,3}\)\.?$/i,
  /\bat\s+(?:the\s+)?location\.?$/i,
  // (hey `HTTP request body from file. For example, /home/user/file.txt`: closing a sentence too)
  // (round 17: lessc `Excludes the sourceMappingURL comment from the output css file.`: the program's own
  // output file is no value given)
  /\bfrom\s+(?!the\s+output\b)(?:[\w-]+\s+){0,3}file(?:\(s\)|s)?(?:\.(?=\s|$)|$)/i,
  // citty giget: `Custom Authorization token to use for downloading`
  /^(?:[\w-]+\s+){0,2}(?:token|password|passphrase|secret)\s+(?:to|for)\b/i,
  // (csvtojson `Explicitly specify the end of line character to use.`: an adverb before the verb)
  /^(?:[a-z]{3,}ly\s+)?(?:specify|set)\s+(?!up\b|(?:the\s+)?(?:flag|option)\b)\S/i,
  // csvtojson `escape character used in quoted column.`, `Field separator to use`: a character or
  // separator named, then what it is used for (a flag's description opens with its verb)
  /^(?:[\w-]+\s+){0,2}(?:character|char|separator|delimiter)\s+(?:used\s+(?:in|for|as|to)|to\s+use)\b/i,
  // sade svelte-check: `Pass a path to a tsconfig or jsconfig file.`
  /^(?:pass|give|provide)\s+(?:an?|the)\s+(?:[\w-]+\s+)?(?:path|file|directory|list|name|url)\s+(?:to|of|for)\b/i,
  /\bthis\s+(?:string|many|number|value|pattern|regexp|file|directory|name|amount)\b/i,
  // microbundle `Declares the module specifier to be used for importing …`, `A string to be used to format …`
  // (mosquitto `SHA1 of the key password to be used with the selected SSL engine`):
  // a named kind of value `to be used` (`Disallow undefined variables to be used` names none)
  /\b(?:the|an?)\s+(?:[\w-]+\s+){0,2}(?:specifier|name|path|file|directory|url|module|string|value|command|pattern|prefix|suffix|template|format|password|passphrase|key|token|secret)\s+to\s+be\s+used\b/i,
  // mosquitto `the topic on which to publish the client Will.`: a noun phrase whose relative clause
  // says what the thing named is for (a flag's description opens with its verb)
  /^(?:an?|the)\s+(?:[\w-]+\s+)?[\w-]+\s+(?:on|to|in|at|from|with|by|for)\s+which\b/i,
  // cpanm `-M,--from   Use only this mirror base URL and its index file`
  /\bthis\s+(?:[\w-]+\s+){1,2}(?:url|uri|host|address|path)\b/i,
  /\((?:in\s+)?(?:milliseconds|seconds|minutes|bytes|ms|secs?)\)/i,
  // hey `Rate limit, in queries per second (QPS) per worker.`: a quantity named, then its unit
  /^(?:[\w-]+\s+){0,2}[\w-]+,\s+in\s+(?:milliseconds|seconds|minutes|bytes|[a-z]+\s+per\s+(?:second|minute|hour))\b/i,
  // hey `"csv" is the only supported alternative`: a value named as one the option takes
  /(["'])[\w.-]{1,30}\1\s+is\s+the\s+only\s+(?:supported|accepted|valid)\b/i,
  // hey `HTTP Accept header.`, `HTTP request body.`: a short noun phrase opening with a protocol's
  // acronym and naming a part of a message or an address, the whole description (a flag's opens with
  // its verb: `Enable HTTP/2.`; nc `UDP mode` is a switch)
  // (meow critical `RFC2617 basic authorization user`: a standard's name with its number too)
  /^[A-Z]{2,6}\d{0,5}\s+(?:[\w-]+\s+){0,2}(?:header|body|address|host|hostname|url|uri|cookie|method|agent|token|key|port|user|username|password)\.?$/,
  // (a named placeholder: units `(e.g. Hz<->s)` draws an arrow)
  /<[A-Za-z0-9_][^<>\s]{0,59}>/,
  /\bglob(?:s|\s+patterns?(?:\(s\))?)\b/i,
  // hey `Basic authentication, username:password.`, `HTTP Proxy address as host:port.`: the value's
  // parts named, joined by a colon, closing the description
  /(?:^|[\s,])[a-z]{2,20}:[a-z]{2,20}\.?$/,
  // http-server `Username for basic authentication [none]`: the hand-written bracketed default says no value is set (a flag says `[false]`)
  /\s\[(?:none|null|unset)\](?:$|\s+(?=[A-Z]))/i,
  // …`Fallback proxy if the request cannot be resolved. e.g.: http://someurl.com`: an example value that is a URL
  /\be\.g\.:?\s+[a-z][a-z0-9+.-]{1,10}:\/\/\S/i,
  // knip: `Pass extra options to the preprocessor (as JSON string, see …)`: the form of the value in a note
  /\(as (?:an? )?(?:JSON|YAML)(?: string| object)?[,)]/i,
];

/** The choices a description states in a form of its own (`one of a, b`, `[possible values: …]`), unless they are examples of an open set. */
export function statedChoices(description: string): string[] | null {
  const facts = extractDescriptionFacts(description);
  if (facts.choices === null || facts.choices.length < 2 || isOpenValueSet(facts.choices, facts.choicesTagged === true)) return null;
  return facts.choices;
}

/** `Without this flag`, `If this flag is given`: the description calls the option a flag (a switch). */
const CALLED_A_FLAG = /\bthis\s+flag\b/i;

/** At least this many options, none of them value-taking, before descriptions are read. */
const MIN_OPTIONS = 5;

function describesValue(description: string): boolean {
  return VALUE_CUES.some((cue) => cue.test(description));
}

/**
 * sade svelte-check: ``Files/folders to ignore … Example: `--ignore "dist,build"` ``: the description's own example gives the option a value,
 * under any of its spellings, backquoted or in parentheses (pino-pretty ``(`-k err,error`)``, `(-U false)`).
 */
function exampleGivesOwnValue(option: CliOption, description: string): boolean {
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // hey `Examples: -z 10s -z 3m.`, `For example, -H "Accept: text/html"`: after an example marker,
  // the option's own spelling (any prefix) and a value
  const spellings = [option.long === null ? null : `${option.prefix ?? '--'}${option.long}`, option.short === null ? null : `-${option.short}`].filter((spelling): spelling is string => spelling !== null);
  const marked = spellings.some((spelling) =>
    // (wait-on `ex: -H "Authorization: Bearer TOKEN"`, `ex: --status-codes 200-499`: `ex:` marks one too)
    // (round 17: autocannon ``e.g. `--warmup [ -c 1 -d 3 ]` ``: the example in a code span of its own)
    new RegExp(String.raw`\b(?:e\.g\.,?|for example,?|examples?:|ex:)\s+\x60?${escape(spelling)}[ =](?:"[^"]+"|'[^']+'|[^\s"'-]\S*)`, 'i').test(description),
  );
  if (marked) return true;
  // electron-packager ``For example, `app-category-type=public.app-category.developer-tools` will set…``:
  // after an example marker, a code span of the option's bare long name, `=` and a value
  const bareLong = option.long === null ? null : escape(option.long);
  if (bareLong !== null && new RegExp(String.raw`\b(?:e\.g\.,?|for example,?|examples?:|ex:)\s+\x60${bareLong}=[^\s\x60=-][^\s\x60]*\x60`, 'i').test(description)) return true;
  // yargs-parser dot notation (electron-packager `e.g. --osx-universal.mergeASARs="true"`): after an example
  // marker, the option's long spelling with a sub-key and its value sets an object's key, a value of the
  // option's own, unless the option may also be given `by itself` (`pass --asar by itself …, or use dot notation`)
  const dotted = option.long === null ? null : escape(`${option.prefix ?? '--'}${option.long}`);
  if (dotted !== null && new RegExp(String.raw`\b(?:e\.g\.,?|for example,?|examples?:|ex:)\s+${dotted}\.[A-Za-z][\w-]{0,40}=\S`, 'i').test(description) && !new RegExp(String.raw`${dotted}\s+by\s+itself\b`, 'i').test(description)) return true;
  // …or backquoted or in parentheses, under any spelling: `` (`-x err:99`) ``, `(-U false)`
  const value = String.raw`(?:"[^"\`()]+"|'[^'\`()]+'|[^\s\`()-][^\s\`()]*)`;
  return spellings.some((raw) => {
    const spelling = escape(raw);
    return new RegExp(String.raw`\`${spelling}[ =]${value}\`|\(${spelling}[ =]${value}\)`).test(description);
  });
}

/**
 * Marks options whose description names a value as value-taking, when every option of the help is a
 * flag as parsed (no placeholder, type tag or choices anywhere) — never in a help that shows them,
 * unless its placeholders are written by hand (`byHand`: meow prints none of its own, so an author's
 * `--cwd=<dir>` beside a bare `--concurrency   Number of files…` says nothing about the latter).
 */
/** `default: false`, `defaults to true`, `(default true)`: a boolean stated as the default. */
const BOOLEAN_DEFAULT = /\bdefault(?:s\s+to\s+|\s+is\s+|\s*[:=]\s*|\s+)["'`]?(?:true|false)["'`]?(?=[\s.,;)\]]|$)/i;

/** A stated list is none when every item is the long name of another option of the help. */
function withoutOptionNames(items: string[] | null, options: readonly CliOption[]): string[] | null {
  if (items === null) return null;
  const longs = new Set(options.map((option) => option.long).filter((long): long is string => long !== null));
  return items.every((item) => longs.has(item)) ? null : items;
}

/** True when the help has enough options and not one shows a placeholder, value type tag or choices. */
export function isBareHelp(options: readonly CliOption[]): boolean {
  return options.length >= MIN_OPTIONS && !options.some((option) => option.takes_value || option.choices !== null);
}

export function applyDescriptionValueTaking(options: CliOption[], byHand: boolean, claim: Claimer): void {
  if (options.length < MIN_OPTIONS || (!byHand && !isBareHelp(options))) return;
  for (const option of options) {
    if (option.takes_value || option.negation !== null || (option.long ?? '').startsWith('no-') || option.description === null) continue;
    // markdown-toc `-i  Edit the <input> file directly … (Without this flag, the default is …)`: the
    // description calls the option a flag
    if (CALLED_A_FLAG.test(option.description)) continue;
    // svelte-check `What output format to use. Options are human, machine.`: the values named as such
    // hey `HTTP method, one of GET, POST, PUT.`: values stated as the option's (a flag has none)
    // (round 17: autocannon `… at a fixed rate using 'connectionRate' or 'overallRate'`: quoted names of
    // other options of the help are references to them, no values)
    const stated = withoutOptionNames(statedChoices(option.description), options);
    // (round 17: autocannon `Enable replacement of [<id>] with … default: false.`: a boolean default is a switch's state)
    if (BOOLEAN_DEFAULT.test(option.description)) continue;
    // (round 14: the generic evidence, evidence-defaults.ts, where no cue above matched)
    if (!describesValue(option.description) && !exampleGivesOwnValue(option, option.description) && namedValuesChoices(option.description) === null && stated === null && !describesTakenValueIn(option, options)) continue;
    claimTakesValue(claim, option, { dropDefault: 'any' });
    // now that a value is taken, the values its prose lists are its choices (as for a placeholder);
    // a stated list holding all of them and more is the whole (`all, or one or more of: ia32, x64`)
    const listed = listedChoices(option.description, null);
    if (option.choices === null) claim(option, 'choices', stated !== null && listed !== null && stated.length > listed.length && listed.every((item) => stated.includes(item)) ? stated : (listed ?? stated));
  }
}

/**
 * sade prints no placeholders: an option a stated default made value-taking (`-f, --format  Only
 * build specified formats (any of modern,esm,cjs,umd or iife)  (default modern,esm,cjs,umd)`) reads
 * the list in its prose as a placeholder's would, when the list holds the stated default (or every
 * item of a comma-joined one), or there is none.
 */
export function applyBareListedChoices(options: CliOption[], claim: Claimer): void {
  for (const option of options) {
    if (!option.takes_value || option.value_name !== null || option.choices !== null || option.description === null) continue;
    const listed = listedChoices(option.description, null);
    if (listed === null) continue;
    const stated = option.default === null ? null : String(option.default);
    if (stated === null || listed.includes(stated) || stated.split(',').every((part) => listed.includes(part))) claim(option, 'choices', listed);
  }
}

/** `comma separated list of extended options`: the description opens by naming the value's form. */
const LIST_FORM_OPENING = /^(?:an?\s+)?comma[- ]separated\s+list\b/i;

/**
 * (round 17) pkg `--no-dict  comma-separated list of packages names …` in a help whose other options
 * show placeholders: a flag is never a list, so a bare option described as one takes a value in any
 * help (not only in the helps without placeholders that applyDescriptionValueTaking reads).
 */
export function applyListFormValueTaking(options: readonly CliOption[], claim: Claimer): void {
  for (const option of options) {
    if (option.takes_value || option.negation !== null || option.repeatable || option.description === null || !LIST_FORM_OPENING.test(option.description)) continue;
    // (memcached's list goes on with its items, `- hashpower: … (default starts at: 0)`: a default stated
    // there is an item's, which the evidence reader would give the option; left as it is)
    if (/\bdefault\b/i.test(option.description)) continue;
    claimTakesValue(claim, option, { dropDefault: 'any' });
  }
}

