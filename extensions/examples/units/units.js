// units: a toolhost example in JavaScript. Converts a quantity between units of one kind (length, mass,
// temperature, ...). ComponentizeJS builds it into a wasi:cli command component: `run.run` is its main and
// the arguments come from wasi:cli/environment. Prints toolhost's JSON envelope on stdout.
import { getArguments } from 'wasi:cli/environment@0.2.12';

// Printed for --help; toolhost parses it into the tool's schema (clap layout: Usage, Arguments, Options).
const HELP = `Convert a quantity between units of length, mass, volume, temperature, speed, data size or time

Usage: units [OPTIONS] <VALUE> <FROM> <TO>

Arguments:
  <VALUE>  The number to convert, e.g. 12.5, -40 or 1e6
  <FROM>   The unit VALUE is in, e.g. km, lb, C, GiB, mph
  <TO>     The unit to convert to, of the same kind as FROM

Options:
  -p, --precision <DIGITS>  Significant digits of the result, 1 to 15 [default: 6]
  -h, --help                Print help`;

/** Units per kind: factor to the kind's base unit, plus long names a model may use. Temperature is affine. */
const KINDS = {
  length: { m: [1, 'meter', 'metre', 'meters', 'metres'], km: [1e3, 'kilometer', 'kilometre', 'kilometers'], cm: [1e-2, 'centimeter'], mm: [1e-3, 'millimeter'], um: [1e-6, 'micrometer', 'µm'], nm: [1e-9, 'nanometer'], mi: [1609.344, 'mile', 'miles'], yd: [0.9144, 'yard', 'yards'], ft: [0.3048, 'foot', 'feet'], in: [0.0254, 'inch', 'inches'], nmi: [1852, 'nautical-mile'] },
  mass: { kg: [1, 'kilogram', 'kilograms'], g: [1e-3, 'gram', 'grams'], mg: [1e-6, 'milligram'], t: [1e3, 'tonne', 'tonnes'], lb: [0.45359237, 'pound', 'pounds', 'lbs'], oz: [0.028349523125, 'ounce', 'ounces'], st: [6.35029318, 'stone'] },
  volume: { l: [1, 'liter', 'litre', 'liters', 'L'], ml: [1e-3, 'milliliter', 'mL'], m3: [1e3, 'cubic-meter'], gal: [3.785411784, 'gallon', 'gallons'], qt: [0.946352946, 'quart'], pt: [0.473176473, 'pint'], cup: [0.2365882365, 'cups'], floz: [0.0295735295625, 'fluid-ounce'] },
  speed: { 'm/s': [1, 'mps'], 'km/h': [1 / 3.6, 'kph', 'kmh'], mph: [0.44704], kn: [1852 / 3600, 'knot', 'knots'], 'ft/s': [0.3048, 'fps'] },
  data: { bit: [0.125, 'bits'], B: [1, 'byte', 'bytes'], kB: [1e3, 'KB'], MB: [1e6], GB: [1e9], TB: [1e12], KiB: [1024], MiB: [1024 ** 2], GiB: [1024 ** 3], TiB: [1024 ** 4] },
  time: { s: [1, 'sec', 'second', 'seconds'], ms: [1e-3, 'millisecond', 'milliseconds'], min: [60, 'minute', 'minutes'], h: [3600, 'hr', 'hour', 'hours'], d: [86400, 'day', 'days'], wk: [604800, 'week', 'weeks'] },
  temperature: { C: [null, 'celsius', '°C'], F: [null, 'fahrenheit', '°F'], K: [null, 'kelvin'] },
};

/** Temperature to and from kelvin. */
const TO_KELVIN = { C: (v) => v + 273.15, F: (v) => ((v - 32) * 5) / 9 + 273.15, K: (v) => v };
const FROM_KELVIN = { C: (v) => v - 273.15, F: (v) => ((v - 273.15) * 9) / 5 + 32, K: (v) => v };

class ToolError extends Error {}

/** Finds a unit by symbol (exact case first, as in "MB" vs "mb") or long name; null when unknown. */
function findUnit(name) {
  const matches = [];
  for (const [kind, units] of Object.entries(KINDS)) {
    for (const [symbol, [factor, ...aliases]] of Object.entries(units)) {
      if (symbol === name || aliases.includes(name)) return { kind, symbol, factor };
      if ([symbol, ...aliases].some((alias) => alias.toLowerCase() === name.toLowerCase())) matches.push({ kind, symbol, factor });
    }
  }
  return matches.length === 1 ? matches[0] : null;
}

function unknownUnit(name) {
  const known = Object.entries(KINDS).map(([kind, units]) => `${kind}: ${Object.keys(units).join(' ')}`);
  return new ToolError(`unknown unit ${JSON.stringify(name)}; known units are ${known.join('; ')}`);
}

/**
 * A small option parser in the shape of Node's util.parseArgs (the JS engine inside a component has no
 * node:util): `--name value`, `--name=value`, `-n value`, boolean flags, and "--" ending the options.
 */
function parseArgs({ args, options }) {
  const values = {};
  const positionals = [];
  const byShort = Object.fromEntries(Object.entries(options).filter(([, spec]) => spec.short).map(([name, spec]) => [spec.short, name]));
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === '--') {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const [flag, inline] = arg.startsWith('--') ? [arg.slice(2).split('=')[0], arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined] : [byShort[arg.slice(1, 2)], arg.length > 2 ? arg.slice(2) : undefined];
    const spec = flag === undefined ? undefined : options[flag];
    if (spec === undefined) throw new ToolError(`unknown option ${arg}; run --help for the options (put "--" before a negative VALUE)`);
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw new ToolError(`--${flag} takes no value`);
      values[flag] = true;
    } else if (inline !== undefined) {
      values[flag] = inline;
    } else if (index + 1 < args.length) {
      values[flag] = args[++index];
    } else {
      throw new ToolError(`--${flag} needs a value`);
    }
  }
  return { values, positionals };
}

function runTool(args) {
  const { values, positionals } = parseArgs({ args, options: { precision: { type: 'string', short: 'p' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.log(HELP);
    return undefined;
  }
  const precision = values.precision === undefined ? 6 : Number(values.precision);
  if (!Number.isInteger(precision) || precision < 1 || precision > 15) throw new ToolError(`--precision must be a whole number from 1 to 15, got ${JSON.stringify(values.precision)}`);
  if (positionals.length !== 3) throw new ToolError(`expected VALUE FROM TO (e.g. 10 km mi), got ${positionals.length} argument(s)`);
  const [valueText, fromName, toName] = positionals;
  const value = Number(valueText);
  if (valueText.trim() === '' || !Number.isFinite(value)) throw new ToolError(`VALUE must be a number, e.g. 12.5 or -40, got ${JSON.stringify(valueText)}`);
  const from = findUnit(fromName);
  if (from === null) throw unknownUnit(fromName);
  const to = findUnit(toName);
  if (to === null) throw unknownUnit(toName);
  if (from.kind !== to.kind) throw new ToolError(`cannot convert ${from.kind} (${from.symbol}) to ${to.kind} (${to.symbol}); FROM and TO must be the same kind of unit`);
  const exact = from.kind === 'temperature' ? FROM_KELVIN[to.symbol](TO_KELVIN[from.symbol](value)) : (value * from.factor) / to.factor;
  if (from.kind === 'temperature' && TO_KELVIN[from.symbol](value) < 0) throw new ToolError(`${valueText} ${from.symbol} is below absolute zero`);
  const result = Number(exact.toPrecision(precision));
  return {
    content: `${value} ${from.symbol} = ${result} ${to.symbol}`,
    metadata: { kind: from.kind, value, from: from.symbol, to: to.symbol, result },
  };
}

// The wasi:cli/run export: the component's main. Throwing makes run() return an error (exit code 1).
export const run = {
  run() {
    let result;
    try {
      result = runTool(getArguments().slice(1));
    } catch (error) {
      // The failure contract: {"error": "..."} on stdout and a non-zero exit.
      console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
      throw error;
    }
    if (result !== undefined) console.log(JSON.stringify(result));
  },
};
