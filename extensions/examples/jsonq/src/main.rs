//! jsonq: a toolhost example in Rust. Reads a JSON document on stdin, selects a part of it with a small
//! path language (`.items[0].name`, `.items[].id`), and prints the result as toolhost's JSON envelope.
//! clap builds the `--help` text toolhost parses into the tool's schema.
use std::io::Read;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;
use serde_json::{json, Map, Value};

/// Query and transform a JSON document read from stdin
#[derive(Parser, Debug)]
#[command(name = "jsonq", disable_version_flag = true)]
struct Cli {
    /// Path to select: .key, ["key"], [N] (negative counts from the end), [] (every element); "." is the whole document
    #[arg(default_value = ".")]
    path: String,

    /// Print the keys of the selected object (or the indexes of an array) instead of the value
    #[arg(short, long)]
    keys: bool,

    /// Print compact JSON instead of pretty-printed JSON
    #[arg(short, long)]
    compact: bool,

    /// Print a selected string as plain text, without JSON quotes
    #[arg(short, long)]
    raw: bool,

    /// Sort object keys in the output
    #[arg(short, long)]
    sort_keys: bool,
}

/// One step of a path.
#[derive(Debug, PartialEq)]
enum Step {
    Key(String),
    Index(i64),
    Each,
}

/// Parses `.a.b[0][]["c d"]` into steps; errors say where the path went wrong.
fn parse_path(path: &str) -> Result<Vec<Step>, String> {
    let chars: Vec<char> = path.trim().chars().collect();
    let mut steps = Vec::new();
    let mut i = 0;
    if chars.first() != Some(&'.') && chars.first() != Some(&'[') {
        return Err(format!("path must start with \".\" or \"[\", got {path:?}; e.g. .items[0].name"));
    }
    while i < chars.len() {
        match chars[i] {
            '.' => {
                i += 1;
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '-') {
                    i += 1;
                }
                if i > start {
                    steps.push(Step::Key(chars[start..i].iter().collect()));
                } else if i < chars.len() && chars[i] != '[' {
                    return Err(format!("unexpected {:?} at position {i} of the path; quote odd keys as [\"key\"]", chars[i]));
                }
            }
            '[' => {
                let close = chars[i..].iter().position(|&c| c == ']').map(|offset| i + offset);
                let Some(close) = close else { return Err(format!("unclosed \"[\" at position {i} of the path")) };
                let inner: String = chars[i + 1..close].iter().collect();
                let inner = inner.trim();
                if inner.is_empty() {
                    steps.push(Step::Each);
                } else if inner.starts_with('"') {
                    let key: String = serde_json::from_str(inner).map_err(|_| format!("bad quoted key {inner} in the path"))?;
                    steps.push(Step::Key(key));
                } else {
                    let index = inner.parse::<i64>().map_err(|_| format!("bad index [{inner}] in the path: use a whole number, [] or [\"key\"]"))?;
                    steps.push(Step::Index(index));
                }
                i = close + 1;
            }
            other => return Err(format!("unexpected {other:?} at position {i} of the path; steps start with \".\" or \"[\"")),
        }
    }
    Ok(steps)
}

/// Where a value was found, for error messages (`.items[2]`).
fn describe(at: &str) -> &str {
    if at.is_empty() {
        "the document"
    } else {
        at
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Applies the steps to one value, collecting every match (more than one only after `[]`).
fn select(value: &Value, steps: &[Step], at: String, out: &mut Vec<Value>) -> Result<(), String> {
    let Some((step, rest)) = steps.split_first() else {
        out.push(value.clone());
        return Ok(());
    };
    match (step, value) {
        (Step::Key(key), Value::Object(map)) => match map.get(key) {
            Some(child) => select(child, rest, format!("{at}.{key}"), out),
            None => {
                let known: Vec<&str> = map.keys().take(20).map(String::as_str).collect();
                Err(format!("no key {key:?} in the object at {}; its keys: {}", describe(&at), known.join(", ")))
            }
        },
        (Step::Index(index), Value::Array(items)) => {
            let length = items.len() as i64;
            let position = if *index < 0 { length + index } else { *index };
            match usize::try_from(position).ok().and_then(|p| items.get(p)) {
                Some(child) => select(child, rest, format!("{at}[{index}]"), out),
                None => Err(format!("index {index} is out of range for the array at {} (length {length})", describe(&at))),
            }
        }
        (Step::Each, Value::Array(items)) => {
            for (position, child) in items.iter().enumerate() {
                select(child, rest, format!("{at}[{position}]"), out)?;
            }
            Ok(())
        }
        (Step::Each, Value::Object(map)) => {
            for (key, child) in map {
                select(child, rest, format!("{at}.{key}"), out)?;
            }
            Ok(())
        }
        (step, other) => {
            let wanted = match step {
                Step::Key(_) => "an object",
                Step::Index(_) => "an array",
                Step::Each => "an array or object",
            };
            Err(format!("{} is {} {}, not {wanted}", describe(&at), article(type_name(other)), type_name(other)))
        }
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'o']) {
        "an"
    } else {
        "a"
    }
}

fn sort_keys(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sort_keys(v))).collect::<Map<String, Value>>())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sort_keys).collect()),
        other => other,
    }
}

fn run(cli: &Cli, input: &str) -> Result<Value, String> {
    if input.trim().is_empty() {
        return Err("no input: pass the JSON document in the stdin parameter".into());
    }
    let document: Value = serde_json::from_str(input).map_err(|error| format!("stdin is not valid JSON: {error}"))?;
    let steps = parse_path(&cli.path)?;
    let iterates = steps.contains(&Step::Each);
    let mut matches = Vec::new();
    select(&document, &steps, String::new(), &mut matches)?;
    let mut selected = if iterates { Value::Array(matches) } else { matches.pop().unwrap_or(Value::Null) };
    if cli.keys {
        selected = match selected {
            Value::Object(map) => Value::Array(map.keys().cloned().map(Value::String).collect()),
            Value::Array(items) => Value::Array((0..items.len()).map(|i| json!(i)).collect()),
            other => return Err(format!("--keys needs an object or array, but {} selects {} {}", cli.path, article(type_name(&other)), type_name(&other))),
        };
    }
    if cli.sort_keys {
        selected = sort_keys(selected);
    }
    let content = match (&selected, cli.raw) {
        (Value::String(text), true) => text.clone(),
        (value, _) if cli.compact => value.to_string(),
        (value, _) => serde_json::to_string_pretty(value).unwrap_or_default(),
    };
    let count = match &selected {
        Value::Array(items) => Some(items.len()),
        Value::Object(map) => Some(map.len()),
        _ => None,
    };
    let mut metadata = json!({ "type": type_name(&selected), "input_bytes": input.len() });
    if let Some(count) = count {
        metadata["count"] = json!(count);
    }
    Ok(json!({ "content": content, "metadata": metadata }))
}

/// The failure contract: `{"error": "..."}` on stdout and a non-zero exit.
fn fail(message: &str, code: u8) -> ExitCode {
    println!("{}", json!({ "error": message }));
    ExitCode::from(code)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if matches!(error.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            print!("{}", error.render());
            return ExitCode::SUCCESS;
        }
        Err(error) => return fail(error.render().to_string().trim(), 2),
    };
    let mut input = String::new();
    if let Err(error) = std::io::stdin().read_to_string(&mut input) {
        return fail(&format!("cannot read stdin: {error}"), 1);
    }
    match run(&cli, &input) {
        Ok(envelope) => {
            println!("{envelope}");
            ExitCode::SUCCESS
        }
        Err(message) => fail(&message, 1),
    }
}
