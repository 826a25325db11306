"""csv2json: a toolhost example in Python. Converts CSV read from stdin to JSON, with argparse options.

componentize-py builds it into a wasi:cli command component: `Run.run` is its main, and it reads its
arguments from wasi:cli/environment. Prints toolhost's JSON envelope on stdout.
"""
import argparse
import csv
import io
import json
import sys

from wit_world import exports

DESCRIPTION = "Convert CSV text read from stdin to JSON: an array of objects keyed by the header row, or of arrays"


class ToolError(Exception):
    """A failure reported to the model as {"error": "..."} (the component then exits with code 1)."""


class Parser(argparse.ArgumentParser):
    """argparse that raises ToolError instead of printing usage to stderr and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ToolError(f"{message}; run --help for the options")


def build_parser() -> Parser:
    # A wide formatter keeps each option on one line (no COLUMNS in the sandbox): toolhost's help parser reads that best.
    parser = Parser(prog="csv2json", description=DESCRIPTION, formatter_class=lambda prog: argparse.HelpFormatter(prog, width=140, max_help_position=32))
    parser.add_argument("-d", "--delimiter", default=",", metavar="CHAR", help='Field separator, one character; "tab" for tabs (default: ,)')
    parser.add_argument("--no-header", action="store_true", help="The first row is data: output arrays instead of objects")
    parser.add_argument("-t", "--types", action="store_true", help="Turn numbers, true/false and empty fields into JSON numbers, booleans and null")
    parser.add_argument("-l", "--limit", type=int, default=0, metavar="N", help="Output at most N rows, 0 for all (default: 0)")
    parser.add_argument("--compact", action="store_true", help="Print compact JSON instead of indented JSON")
    return parser


def arguments() -> list[str]:
    """The command-line arguments the host passed (wasi:cli/environment), without the program name."""
    try:
        from wit_world.imports import environment

        return list(environment.get_arguments())[1:]
    except ImportError:
        return sys.argv[1:]


def typed(value: str):
    """A field as the JSON value it spells (with --types)."""
    if value == "":
        return None
    lowered = value.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(value)
    except ValueError:
        pass
    try:
        number = float(value)
    except ValueError:
        return value
    return number if number == number and number not in (float("inf"), float("-inf")) else value


def convert(options: argparse.Namespace, text: str) -> dict:
    delimiter = "\t" if options.delimiter == "tab" else options.delimiter
    if len(delimiter) != 1:
        raise ToolError(f'--delimiter must be one character (or "tab"), got {options.delimiter!r}')
    if options.limit < 0:
        raise ToolError(f"--limit must be 0 or more, got {options.limit}")
    if text.strip() == "":
        raise ToolError("no input: pass the CSV text in the stdin parameter")
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as error:
        raise ToolError(f"the CSV is malformed: {error}") from error
    rows = [row for row in rows if row]
    value = (lambda field: typed(field)) if options.types else (lambda field: field)
    if options.no_header:
        header: list[str] = []
        records: list = [[value(field) for field in row] for row in rows]
    else:
        header, body = rows[0], rows[1:]
        duplicates = sorted({name for name in header if header.count(name) > 1})
        if duplicates:
            raise ToolError(f"the header row repeats column names {duplicates}; rename them, or pass --no-header")
        records = []
        for number, row in enumerate(body, start=2):
            if len(row) != len(header):
                raise ToolError(f"row {number} has {len(row)} fields but the header has {len(header)}; check quoting and the --delimiter")
            records.append({name: value(field) for name, field in zip(header, row)})
    total = len(records)
    if options.limit:
        records = records[: options.limit]
    content = json.dumps(records, ensure_ascii=False, separators=(",", ":") if options.compact else None, indent=None if options.compact else 2)
    return {"content": content, "metadata": {"rows": len(records), "total_rows": total, "columns": header}}


def wants_help(args: list[str]) -> bool:
    """-h/--help among the options (before any "--", after which every argument is a value)."""
    options = args[: args.index("--")] if "--" in args else args
    return any(arg in ("-h", "--help") for arg in options)


def run_tool(args: list[str]) -> dict | None:
    parser = build_parser()
    if wants_help(args):
        # argparse would print help and call sys.exit(0); a command component returns from run() instead.
        sys.stdout.write(parser.format_help())
        return None
    options = parser.parse_args(args)
    return convert(options, sys.stdin.read())


def preload() -> None:
    """Runs argparse's help and error paths and one conversion while componentize-py builds the component.

    componentize-py snapshots the interpreter after importing this module, and a standard-library module
    first imported later is not found at run time ("No module named 'locale'"). argparse imports gettext,
    locale and _colorize lazily, so exercising it here puts them in the snapshot.
    """
    parser = build_parser()
    parser.format_help()
    try:
        parser.parse_args(["--no-such-option"])
    except ToolError:
        pass
    convert(parser.parse_args(["--types", "--limit", "1"]), "a,b\n1,x\n")


preload()


class Run(exports.Run):
    """The wasi:cli/run export: Python's main() for a command component."""

    def run(self) -> None:
        try:
            result = run_tool(arguments())
        except ToolError as error:
            # The failure contract: {"error": "..."} on stdout and a non-zero exit.
            print(json.dumps({"error": str(error)}))
            sys.stdout.flush()
            from componentize_py_types import Err

            raise Err(None)
        if result is not None:
            print(json.dumps(result, ensure_ascii=False))
        sys.stdout.flush()
