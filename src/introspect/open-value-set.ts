/**
 * Lists that look like choices but name examples of an open set, so an enum built from them would
 * refuse values the program takes: quantities with a unit (ncu `"7d" (days), "12h" (hours), "30m"`,
 * jscpd `1kb, 1mb, 120kb`: any number of days or bytes is accepted) and type names (prettier's
 * `inferredParser (string | null)` describes a field's type, not a value to pass), and lower-case
 * values beside an upper-case placeholder (argparse `{keep,no,INTEGER}`: any integer is taken too),
 * and a numeric range among them (iperf `either 0-63 or symbolic`), an item patterned with placeholder
 * capitals (`graphviz-FMT`), an ellipsis item (`{*|FORMAT,FORMAT,...}`) or `etc.`.
 */

/** `7d`, `12h`, `30m`, `500ms`, `1.5s`, `1kb`, `120KiB`, `2G`: a number with a time or size unit. */
const QUANTITY = /^\d+(?:\.\d+)?(?:ms|us|ns|s|m|h|d|w|y|b|k|kb|kib|m|mb|mib|g|gb|gib|t|tb|tib)$/i;
/** `INTEGER`, `NUM`, `FILE_NAME`: a placeholder word among values. */
const PLACEHOLDER = /^[A-Z][A-Z_]{2,}$/;
/**
 * click subliminal `[ALL|addic7ed|bsplayer|…]`: a keyword written in capitals (all, none, any, auto,
 * default, yes, true, …) is a literal value beside the others, no placeholder of a kind of value.
 */
const CAPITAL_KEYWORD = /^(?:ALL|NONE|ANY|AUTO|DEFAULT|YES|TRUE|FALSE|OFF)$/;
const NUMERIC_RANGE = /^\d+-\d+$/;
/** pipdeptree `graphviz-FMT`: a literal part glued to placeholder capitals is a pattern of many values. */
const PATTERNED_ITEM = /^[a-z0-9][a-z0-9.]*[-_:=/][A-Z]{2,}[A-Z0-9_]*$/;
/** click `{*|FORMAT,FORMAT,...}`: an ellipsis among the items says more values follow. */
const ELLIPSIS_ITEM = /^(?:\.{2,3}|…)$/;
/** scc `(facilities, equipment, accounting, etc.)`, tqdm `(kilo, mega, etc.)`: examples, not the whole set. */
const ETC_ITEM = /^(?:etc\.?|and so on)$/i;
/**
 * ruby `-W[level=2|:category]`: an item that is a key given a value (`level=2`) or a mark before a
 * name (`:category`) shows the shape of a value, not one value: the alternatives are templates;
 * so does one holding a `{field}` the program fills in (gomodifytags `"column:{field}", "field_name={field}"`).
 */
const TEMPLATE_ITEM = /^[a-z][\w-]*=\S|^:[a-z]|\{[a-z_][\w.]{0,30}\}/;
/** `:numeric`: a Ruby symbol, the spelling Ruby helps give a value. */
const RUBY_SYMBOL = /^:[a-z_]\w{0,30}$/;
/** cac vite-bundle-visualizer `should be "**\/*.html" or "**\/*.json"`: a wildcard with a path or suffix is a glob, matching many values. */
const GLOB_ITEM = /^(?=[^*]*\*)(?=.*[./])[^\s]{2,200}$/;
const TYPE_NAMES = new Set(['string', 'number', 'boolean', 'bool', 'null', 'undefined', 'object', 'array', 'integer', 'int', 'float', 'any']);

/**
 * codespell `-q LEVEL  bitmask …: - 0: … - 1: … - 2: … - 4: …`: numbers that are each zero or a
 * power of two, with 1, 2 and 4 among them, are bits of a mask; their sums (3, 7, 34) are taken too.
 */
function isBitMask(items: readonly string[]): boolean {
  if (!items.every((item) => /^\d{1,10}$/.test(item))) return false;
  const values = items.map(Number);
  return values.every((value) => value === 0 || (value & (value - 1)) === 0) && [1, 2, 4].every((bit) => values.includes(bit));
}

/**
 * True when every item is a quantity with a unit, or every item is a type name, or the items are bits
 * of a mask: the list is open. `tagged`: the list is a framework's choices tag (yargs `[choices:
 * "number", "integer"]`), whose type names are the values themselves.
 */
export function isOpenValueSet(items: readonly string[], tagged = false): boolean {
  if (items.length === 0) return false;
  // iperf `either 0-63 or symbolic`: a numeric range stands for every number in it
  if (items.some((item) => NUMERIC_RANGE.test(item))) return true;
  if (items.some((item) => PATTERNED_ITEM.test(item) || ELLIPSIS_ITEM.test(item) || ETC_ITEM.test(item))) return true;
  // (kramdown `:as_input, :numeric, … or :as_char`: every item a Ruby symbol is a closed set of them)
  if (items.some((item) => TEMPLATE_ITEM.test(item)) && !items.every((item) => RUBY_SYMBOL.test(item))) return true;
  if (items.some((item) => GLOB_ITEM.test(item))) return true;
  if (isBitMask(items)) return true;
  if (items.some((item) => PLACEHOLDER.test(item) && !CAPITAL_KEYWORD.test(item)) && items.some((item) => /^[a-z0-9][a-z0-9._-]*$/.test(item))) return true;
  return items.every((item) => QUANTITY.test(item)) || (!tagged && items.every((item) => TYPE_NAMES.has(item.toLowerCase())));
}

/**
 * bombardier `<spec> is either a name … of some format … or a path to the user-defined template`,
 * flake8 `… or a format string`: prose offering, beside the listed names, a kind of value any
 * spelling of which is taken (a path, a file, a URL, a format string or template, or oxipng's
 * `a comma-separated list, or a range of values`) leaves the list open; the names it lists are
 * some of the values, not all.
 */
const OPEN_ALTERNATIVE = /\bor (?:a|an|any) (?:(?:custom|user-defined|relative|absolute) )?(?:path|file ?(?:name|path)?|url|format string|template|range)\b/i;

export function offersOpenAlternative(description: string): boolean {
  return OPEN_ALTERNATIVE.test(description);
}

/** `<path>`, `<file>`, `FILE`, `<filepath>`, `PATH`: a placeholder naming a file to read or write. */
const FILE_PLACEHOLDER = /^[<[]?(?:file|path|filepath|filename|file-?path|file-?name)s?[>\]]?$/i;
/** `JSON`, `CSV`, `YAML`: a format's acronym in capitals. */
const FORMAT_ACRONYM = /^[A-Z]{2,5}$/;

/**
 * commander newman `-d, --iteration-data <path>  Specify a data file to use for iterations (either
 * JSON or CSV)`: format acronyms listed for a value that is a file name what the file holds; the
 * value is any path.
 */
export function namesFileContents(items: readonly string[], valueName: string | null): boolean {
  return valueName !== null && FILE_PLACEHOLDER.test(valueName) && items.length > 0 && items.every((item) => FORMAT_ACRONYM.test(item));
}
