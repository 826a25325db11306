# Hand-written expectations for the help corpus (compact form, expanded to JSON).
import json, sys
OUT = sys.argv[1]
def O(long, short, desc, **kw):
    o = {"long": long, "short": short, "aliases": [], "takes_value": False, "value_name": None, "type": "boolean",
         "default": None, "choices": None, "repeatable": False, "required": False, "negation": None, "description": desc}
    if "value" in kw:
        o["takes_value"] = True; o["value_name"] = kw.pop("value"); o["type"] = kw.pop("type", "string")
    o.update(kw); return o
def V(long, short, value, typ, desc, **kw): return O(long, short, desc, value=value, type=typ, **kw)
def P(name, required=True, variadic=False): return {"name": name, "required": required, "variadic": variadic}
def S(name, desc=None): return {"name": name, "description": desc}
def write(file, name, description, options, positionals=[], subcommands=[], partial=False):
    d = {"name": name, "description": description, "partial": partial, "options": options, "positionals": positionals, "subcommands": subcommands}
    json.dump(d, open(f"{OUT}/{file}.expected.json", "w"), indent=2); open(f"{OUT}/{file}.expected.json", "a").write("\n")

write("gnu-head", "head", "Print the first 10 lines of each FILE to standard output. With more than one FILE, precede each with a header giving the file name.", [
  V("bytes", "c", "NUM", "integer", "print the first NUM bytes of each file; with the leading '-', print all but the last NUM bytes of each file"),
  V("lines", "n", "NUM", "integer", "print the first NUM lines instead of the first 10; with the leading '-', print all but the last NUM lines of each file"),
  O("quiet", "q", "never print headers giving file names", aliases=["--silent"]),
  O("verbose", "v", "always print headers giving file names"),
  O("zero-terminated", "z", "line delimiter is NUL, not newline"),
], [P("FILE", False, True)])

write("gnu-sort", "sort", "Write sorted concatenation of all FILE(s) to standard output.", [
  O("ignore-leading-blanks", "b", "ignore leading blanks"),
  O("dictionary-order", "d", "consider only blanks and alphanumeric characters"),
  O("ignore-case", "f", "fold lower case to upper case characters"),
  O("general-numeric-sort", "g", "compare according to general numerical value"),
  O("ignore-nonprinting", "i", "consider only printable characters"),
  O("month-sort", "M", "compare (unknown) < 'JAN' < ... < 'DEC'"),
  O("human-numeric-sort", "h", "compare human readable numbers (e.g., 2K 1G)"),
  O("numeric-sort", "n", "compare according to string numerical value"),
  O("random-sort", "R", "shuffle, but group identical keys. See shuf(1)"),
  V("random-source", None, "FILE", "path", "get random bytes from FILE"),
  O("reverse", "r", "reverse the result of comparisons"),
  V("sort", None, "WORD", "string", "sort according to WORD: general-numeric -g, human-numeric -h, month -M, numeric -n, random -R, version -V"),
  O("version-sort", "V", "natural sort of (version) numbers within text"),
  V("batch-size", None, "NMERGE", "integer", "merge at most NMERGE inputs at once; for more use temp files"),
  O("check", "c", "check for sorted input; do not sort", aliases=["--check=diagnose-first"]),
  O(None, "C", "like -c, but do not report first bad line", aliases=["--check=quiet", "--check=silent"]),
  V("compress-program", None, "PROG", "string", "compress temporaries with PROG; decompress them with PROG -d"),
  O("debug", None, "annotate the part of the line used to sort, and warn about questionable usage to stderr"),
  V("files0-from", None, "F", "string", "read input from the files specified by NUL-terminated names in file F; If F is - then read names from standard input"),
  V("key", "k", "KEYDEF", "string", "sort via a key; KEYDEF gives location and type"),
  O("merge", "m", "merge already sorted files; do not sort"),
  V("output", "o", "FILE", "path", "write result to FILE instead of standard output"),
  O("stable", "s", "stabilize sort by disabling last-resort comparison"),
  V("buffer-size", "S", "SIZE", "string", "use SIZE for main memory buffer"),
  V("field-separator", "t", "SEP", "string", "use SEP instead of non-blank to blank transition"),
  V("temporary-directory", "T", "DIR", "path", "use DIR for temporaries, not $TMPDIR or /tmp; multiple options specify multiple directories"),
  V("parallel", None, "N", "integer", "change the number of sorts run concurrently to N"),
  O("unique", "u", "with -c, check for strict ordering; without -c, output only the first of an equal run"),
  O("zero-terminated", "z", "line delimiter is NUL, not newline"),
], [P("FILE", False, True)])

write("gnu-gzip", "gzip", "Compress or uncompress FILEs (by default, compress FILES in-place).", [
  O("stdout", "c", "write on standard output, keep original files unchanged"),
  O("decompress", "d", "decompress"),
  O("force", "f", "force overwrite of output file and compress links"),
  O("keep", "k", "keep (don't delete) input files"),
  O("list", "l", "list compressed file contents"),
  O("license", "L", "display software license"),
  O("no-name", "n", "do not save or restore the original name and timestamp"),
  O("name", "N", "save or restore the original name and timestamp"),
  O("quiet", "q", "suppress all warnings"),
  O("recursive", "r", "operate recursively on directories"),
  O("rsyncable", None, "make rsync-friendly archive"),
  V("suffix", "S", "SUF", "string", "use suffix SUF on compressed files"),
  O("synchronous", None, "synchronous output (safer if system crashes, but slower)"),
  O("test", "t", "test compressed file integrity"),
  O("verbose", "v", "verbose mode"),
  O("fast", "1", "compress faster"),
  O("best", "9", "compress better"),
], [P("FILE", False, True)])

write("gnu-cp", "cp", "Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.", [
  O("archive", "a", "same as -dR --preserve=all"),
  V("backup", None, "CONTROL", "string", "make a backup of each existing destination file", value_optional=True),
  O(None, "b", "like --backup but does not accept an argument"),
  O("force", "f", "if an existing destination file cannot be opened, remove it and try again (this option is ignored when the -n option is also used)"),
  O(None, "H", "follow command-line symbolic links in SOURCE"),
  V("preserve", None, "ATTR_LIST", "string", "preserve the specified attributes (default: mode,ownership,timestamps), if possible additional attributes: context, links, xattr, all", value_optional=True, default="mode,ownership,timestamps"),
  V("no-preserve", None, "ATTR_LIST", "string", "don't preserve the specified attributes"),
  O("recursive", "R", "copy directories recursively", aliases=["-r"]),
  V("sparse", None, "WHEN", "string", "control creation of sparse files. See below"),
  O("strip-trailing-slashes", None, "remove any trailing slashes from each SOURCE argument"),
  V("target-directory", "t", "DIRECTORY", "path", "copy all SOURCE arguments into DIRECTORY"),
  O("update", "u", "copy only when the SOURCE file is newer than the destination file or when the destination file is missing"),
  O(None, "Z", "set SELinux security context of destination file to default type"),
  V("context", None, "CTX", "string", "like -Z, or if CTX is specified then set the SELinux or SMACK security context to CTX", value_optional=True),
], [P("SOURCE"), P("DEST")], partial=True)

write("gnu-ls", "ls", "List information about the FILEs (the current directory by default). Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.", [
  O("all", "a", "do not ignore entries starting with ."),
  V("block-size", None, "SIZE", "string", "with -l, scale sizes by SIZE when printing them; e.g., '--block-size=M'; see SIZE format below"),
  V("color", None, "WHEN", "string", "color the output WHEN; more info below", value_optional=True),
  V("format", None, "WORD", "string", "across -x, commas -m, horizontal -x, long -l, single-column -1, verbose -l, vertical -C"),
  V("hide", None, "PATTERN", "string", "do not list implied entries matching shell PATTERN (overridden by -a or -A)"),
  V("ignore", "I", "PATTERN", "string", "do not list implied entries matching shell PATTERN"),
  O("human-readable", "h", "with -l and -s, print sizes like 1K 234M 2G etc."),
  V("tabsize", "T", "COLS", "string", "assume tab stops at each COLS instead of 8"),
  V("width", "w", "COLS", "string", "set output width to COLS. 0 means no limit"),
  O(None, "1", "list one file per line"),
], [P("FILE", False, True)], partial=True)

write("argp-rotlog", "rotlog", "rotlog -- rotate, compress and prune log files", [
  V("keep", "k", "COUNT", "integer", "Keep COUNT rotated files", default=7),
  O("dry-run", "n", "Show what would be done without doing it"),
  V("suffix", None, "SUFFIX", "string", "Append SUFFIX to rotated names; date if omitted", value_optional=True),
  V("size", "s", "BYTES", "string", "Rotate only files larger than BYTES"),
  V("state-file", "S", "FILE", "path", "Read and write rotation state in FILE"),
  O("compress", "z", "Compress rotated files with gzip"),
  O("quiet", "q", "Print nothing but errors", aliases=["--silent"]),
  O("verbose", "v", "Print each action"),
], [P("LOGFILE", True, True)])

write("argparse-csvstat", "csvstat", "Compute summary statistics for the columns of a CSV file.", [
  V("delimiter", "d", "DELIMITER", "string", "field delimiter", default=","),
  V("max-rows", "n", "N", "integer", "stop after reading N rows"),
  V("precision", None, "PRECISION", "string", "decimal places in the output"),
  V("format", None, None, "string", "output format", choices=["table", "json", "csv"]),
  O("skip-header", None, "the first row is data, not a header"),
  V("encoding", "e", "ENCODING", "string", "text encoding of the input file"),
  V("exclude", None, "COLUMN", "string", "column to exclude; may be repeated", repeatable=True),
  O("quiet", "q", "suppress warnings about malformed rows"),
  V("threshold", None, "THRESHOLD", "string", "ignore values whose absolute value is below this threshold"),
], [P("file"), P("columns", False, True)])

write("argparse-backup", "backup", "Back up directories to a remote store.", [
  O("dry-run", None, "show what would be done"),
  V("host", None, "HOST", "string", "remote host name", required=True),
  V("port", None, "PORT", "integer", "remote SSH port"),
], [], [S("create", "create a new snapshot"), S("restore", "restore files from a snapshot"), S("prune", "delete snapshots older than the retention period")])

write("optparse-mailer", "mailer", "Send a message read from standard input to one or more recipients.", [
  V("subject", "s", "TEXT", "string", "subject line of the message"),
  V("from", "f", "ADDRESS", "string", "sender address", default="root@localhost"),
  V("port", "p", "PORT", "integer", "SMTP port to connect to", default=25),
  V("cc", "c", "ADDRESS", "string", "add a carbon-copy recipient; may be repeated", repeatable=True),
  O("html", None, "send the body as HTML"),
  O("verbose", "v", "print the SMTP conversation"),
  V("priority", None, "PRIORITY", "string", "message priority, one of: low, normal, high", choices=["low", "normal", "high"]),
], [P("RECIPIENT", True, True)])

write("click-thumbs", "thumbs", "Create thumbnails for every image under SRC.", [
  V("size", "s", "INTEGER", "integer", "Longest side of the thumbnail in pixels.", default=128),
  V("format", None, None, "string", "Image format of the thumbnails.", default="png", choices=["png", "jpeg", "webp"]),
  O("recursive", None, "Descend into subdirectories.", default=True, negation="--no-recursive"),
  V("quality", "q", "INTEGER RANGE", "integer", "Compression quality."),
  V("exclude", None, "GLOB", "string", "Skip files matching GLOB. Can be given several times.", repeatable=True),
  O("overwrite", None, "Replace thumbnails that already exist."),
  V("ratio", None, "FLOAT", "number", "Crop to this aspect ratio before scaling."),
], [P("SRC"), P("DEST", False)])

write("typer-notes", "notes", "Create a new note with a title and optional tags.", [
  V("tag", "t", "list[str]", "string", "Tag to attach; repeat for several tags", repeatable=True),
  V("priority", None, "int", "integer", "Priority from 1 (high) to 5 (low)", default=3),
  O("pinned", None, "Pin the note to the top"),
  V("editor", None, "str", "string", "Editor used to write the body", default="vi"),
], [P("title")])

write("goflag-fileserve", "fileserve", "", [
  V("addr", None, "address", "string", "listen address for the HTTP server", default=":8080"),
  V("cache-ratio", None, "float", "number", "fraction of memory used for the cache", default=0.5),
  O("gzip", None, "compress responses with gzip", default=True, negation="-gzip=false"),
  V("log-file", None, "path", "path", "write logs to path instead of stderr"),
  V("root", None, "string", "string", "directory to serve files from", default="."),
  V("timeout", None, "duration", "string", "read timeout for requests", default="30s"),
  O(None, "v", "enable verbose logging"),
  V("workers", None, "int", "integer", "number of worker goroutines", default=4),
])

write("cobra-kubedeploy", "kubedeploy", "kubedeploy applies Kubernetes manifests to a cluster and waits for the rollout to finish.", [
  O("dry-run", None, "print the objects without sending them"),
  V("label", "l", "strings", "string", "label to add, as key=value (repeatable)", repeatable=True),
  V("namespace", "n", "string", "string", "namespace to deploy into", default="default"),
  V("output", "o", "string", "string", "output format: text or json", default="text"),
  V("replicas", "r", "int", "integer", "number of replicas to run", default=1),
  V("wait", None, "duration", "string", "how long to wait for the rollout"),
], [P("MANIFEST", True, True)], [S("rollback", "Roll a deployment back to its previous revision"), S("status", "Show the rollout status of a deployment")])

write("clap-imgconv", "imgconv", "Convert images between formats, resizing them on the way", [
  V("output-dir", "o", "DIR", "path", "Directory to write converted images into", default="out"),
  V("format", "f", "FORMAT", "string", "Output format", default="png", choices=["png", "jpeg", "webp"]),
  V("quality", "q", "QUALITY", "integer", "JPEG/WebP quality from 1 to 100", default=85),
  V("scale", None, "FACTOR", "number", "Scale factor applied to both dimensions"),
  O("force", None, "Overwrite existing files"),
  O("verbose", "v", "Increase logging verbosity (can be repeated)", repeatable=True),
  V("strip", None, "TAG", "string", "Strip metadata tag; may be given several times", repeatable=True),
  V("jobs", "j", "N", "integer", "Number of worker threads"),
], [P("INPUTS", True, True)])

write("commander-deployer", "deployer", "Upload a static site to an object storage bucket", [
  V("bucket", "b", "name", "string", "target bucket"),
  V("region", "r", "region", "string", "bucket region", default="us-east-1"),
  V("concurrency", "c", "n", "integer", "parallel uploads", default=8),
  O("dry-run", None, "list the files without uploading them"),
  O("no-cache", None, "disable the local upload cache"),
  V("exclude", "e", "patterns", "string", "glob patterns to skip", repeatable=True),
  V("acl", None, "acl", "string", "canned ACL for uploaded objects", default="private", choices=["private", "public-read"]),
  V("max-age", None, "seconds", "integer", "Cache-Control max-age for uploaded objects", value_optional=True),
], [P("source"), P("prefix", False)])

write("yargs-resize", "resize", "Resize images to fit within a bounding box", [
  V("width", "w", None, "number", "maximum width in pixels", required=True),
  V("height", "H", None, "number", "maximum height in pixels"),
  V("mode", None, None, "string", "how to fit the box", default="fit", choices=["fit", "fill", "stretch"]),
  V("out-dir", "o", None, "string", "directory for the results", default="resized"),
  O("keep-exif", None, "keep EXIF metadata"),
  V("tag", None, None, "string", "tags to add to the output", repeatable=True),
], [P("files", True, True)])

write("docopt-navalfate", "naval_fate", "Naval Fate.", [
  V("speed", None, "kn", "integer", "Speed in knots", default=10),
  O("moored", None, "Moored (anchored) mine."),
  O("drifting", None, "Drifting mine."),
], [], [S("ship"), S("mine")])

write("docopt-fetchurl", "fetchurl", "Download a URL to a file, resuming partial downloads.", [
  V("retries", "r", "n", "integer", "Number of retries on failure", default=3),
  V("timeout", "t", "secs", "integer", "Seconds to wait for the server", default=30),
  O("quiet", "q", "Print nothing."),
  V("user-agent", None, "ua", "string", "User-Agent header to send."),
  O("no-resume", None, "Always start from scratch."),
], [P("url"), P("output", False)])

write("handwritten-jq", "jq", "jq - commandline JSON processor [version 1.6]", [
  O(None, "c", "compact instead of pretty-printed output;"),
  O(None, "n", "use `null` as the single input value;"),
  O(None, "e", "set the exit status code based on the output;"),
  O(None, "s", "read (slurp) all inputs into an array; apply filter to it;"),
  O(None, "r", "output raw strings, not JSON texts;"),
  O(None, "R", "read raw strings, not JSON texts;"),
  O(None, "C", "colorize JSON;"),
  O(None, "M", "monochrome (don't colorize JSON);"),
  O(None, "S", "sort keys of objects on output;"),
  O("tab", None, "use tabs for indentation;"),
  V("arg", None, "a", "string", "set variable $a to value <v>;"),
  V("argjson", None, "a", "string", "set variable $a to JSON value <v>;"),
  V("slurpfile", None, "a", "string", "set variable $a to an array of JSON texts read from <f>;"),
  V("rawfile", None, "a", "string", "set variable $a to a string consisting of the contents of <f>;"),
  O("args", None, "remaining arguments are string arguments, not files;"),
  O("jsonargs", None, "remaining arguments are JSON arguments, not files;"),
], [P("jq filter"), P("file", False, True)])

write("argp-tar", "tar", "GNU 'tar' saves many files together into a single tape or disk archive, and can restore individual files from the archive.", [
  O("create", "c", "create a new archive"),
  O("extract", "x", "extract files from an archive", aliases=["--get"]),
  V("file", "f", "ARCHIVE", "string", "use archive file or device ARCHIVE"),
  O("gzip", "z", "filter the archive through gzip", aliases=["--gunzip", "--ungzip"]),
  V("directory", "C", "DIR", "path", "change to directory DIR"),
  V("exclude", None, "PATTERN", "string", "exclude files, given as a PATTERN"),
  O("verbose", "v", "verbosely list files processed"),
  V("strip-components", None, "NUMBER", "integer", "strip NUMBER leading components from file names on extraction"),
], [P("FILE", False, True)], partial=True)
