/** `toolhost new rust`: a std-only Rust program built for wasm32-wasip2 (or wasip1 + jco). */
import { envelopeSidecar, EXAMPLE_MAX_TIMES, exampleHelp, quoteLiteral, readme, type TemplateFile, type ToolTemplate } from './template.ts';

function crateName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

function source(name: string): string {
  return `//! ${name}: a toolhost tool. Build with ./build.sh; see README.md for the contract.
use std::process::ExitCode;

/// Printed for --help; toolhost parses it into the tool's schema. Keep the layout.
const HELP: &str = "${quoteLiteral(exampleHelp(name))}";

/// Writes text as a JSON string literal (std only, no serde needed).
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\\\\""),
            '\\\\' => out.push_str("\\\\\\\\"),
            '\\n' => out.push_str("\\\\n"),
            '\\r' => out.push_str("\\\\r"),
            '\\t' => out.push_str("\\\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The failure contract: {"error": "..."} on stdout and a non-zero exit.
fn fail(message: &str) -> ExitCode {
    println!("{{\\"error\\": {}}}", json_string(message));
    ExitCode::FAILURE
}

fn main() -> ExitCode {
    let mut times: u32 = 1;
    let mut upper = false;
    let mut text: Option<String> = None;
    // After "--" every argument is TEXT, even one that starts with "-".
    let mut options_done = false;

    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if options_done {
            if text.is_some() {
                return fail("expected one TEXT argument; quote text that contains spaces");
            }
            text = Some(arg);
            continue;
        }
        match arg.as_str() {
            "--" => options_done = true,
            "-h" | "--help" => {
                print!("{HELP}");
                return ExitCode::SUCCESS;
            }
            "-u" | "--upper" => upper = true,
            "-n" | "--times" => {
                let Some(value) = args.next() else { return fail("--times needs a value, e.g. --times 3") };
                match value.parse::<u32>() {
                    Ok(n) if (1..=${EXAMPLE_MAX_TIMES}).contains(&n) => times = n,
                    _ => return fail(&format!("--times must be a whole number from 1 to ${EXAMPLE_MAX_TIMES}, got {value:?}")),
                }
            }
            other if other.starts_with("--times=") => {
                let value = &other["--times=".len()..];
                match value.parse::<u32>() {
                    Ok(n) if (1..=${EXAMPLE_MAX_TIMES}).contains(&n) => times = n,
                    _ => return fail(&format!("--times must be a whole number from 1 to ${EXAMPLE_MAX_TIMES}, got {value:?}")),
                }
            }
            other if other.starts_with('-') && other != "-" => {
                return fail(&format!("unknown option {other}; run --help for the options"));
            }
            _ if text.is_none() => text = Some(arg),
            _ => return fail("expected one TEXT argument; quote text that contains spaces"),
        }
    }
    let Some(text) = text else { return fail("missing the TEXT argument: the text to repeat") };

    let text = if upper { text.to_uppercase() } else { text };
    let content = vec![text; times as usize].join(" ");
    // The success contract: {"content": "...", "metadata": {...}} on stdout, exit 0.
    println!("{{\\"content\\": {}, \\"metadata\\": {{\\"times\\": {times}, \\"upper\\": {upper}}}}}", json_string(&content));
    ExitCode::SUCCESS
}
`;
}

function buildScript(name: string): string {
  return `#!/bin/sh
# Builds ${name}.wasm. With rustup's wasm32-wasip2 target (Rust >= 1.82) cargo emits a component
# directly; otherwise it builds for wasm32-wasip1 and jco wraps the module with the command adapter.
#   rustup target add wasm32-wasip2      (or: apt-get install rustc + the wasm32-wasip1 std, e.g. Debian's libstd-rust-dev-wasm32)
set -eu
cd "$(dirname "$0")"
JCO="\${JCO:-npx --yes @bytecodealliance/jco@1.11.2}"
if rustc --print target-list 2>/dev/null | grep -qx wasm32-wasip2 && rustup target list --installed 2>/dev/null | grep -qx wasm32-wasip2; then
  cargo build --release --target wasm32-wasip2
  cp target/wasm32-wasip2/release/${crateName(name)}.wasm ${name}.wasm
else
  cargo build --release --target wasm32-wasip1
  $JCO new target/wasm32-wasip1/release/${crateName(name)}.wasm --wasi-command -o ${name}.wasm
fi
echo "built ${name}.wasm"
`;
}

export const rustTemplate: ToolTemplate = {
  language: 'rust',
  toolchain: 'cargo (wasm32-wasip2, or wasm32-wasip1 + jco)',
  setupCommand: 'rustup target add wasm32-wasip2',
  buildCommand: './build.sh',
  files(name: string): TemplateFile[] {
    return [
      { path: 'src/main.rs', content: source(name) },
      {
        path: 'Cargo.toml',
        content: `[package]\nname = "${crateName(name)}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n\n[profile.release]\nopt-level = "s"\nlto = true\nstrip = true\n`,
      },
      envelopeSidecar(name),
      { path: 'build.sh', content: buildScript(name), executable: true },
      { path: '.gitignore', content: '/target\n*.wasm\n' },
      {
        path: 'README.md',
        content: readme(name, {
          language: 'Rust',
          build: ['rustup target add wasm32-wasip2     # once', './build.sh', `ls -l ${name}.wasm`],
          layout: ['`src/main.rs`: the tool: argument parsing, `--help`, the JSON output contract (std only)', '`Cargo.toml`, `build.sh`'],
          notes: [
            'clap works too: its default help layout (`-s, --long <VALUE>  text [default: x]`) is what toolhost parses best.',
            'Add `clap = { version = "4", features = ["derive"] }` and keep `#[arg(default_value = ...)]` on options.',
          ],
        }),
      },
    ];
  },
};
