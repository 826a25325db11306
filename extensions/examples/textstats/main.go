// textstats: a toolhost example in Go. Counts lines, words and characters of text files in the folder the
// tool's policy grants (/data, see textstats.policy.json) and lists the most frequent words. Options come
// from the standard flag package; build with GOOS=wasip1 GOARCH=wasm (toolhost wraps the wasip1 module).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// dataRoot is the guest folder textstats.policy.json grants; relative FILE arguments are resolved under it.
const dataRoot = "/data"

// maxFileBytes keeps one call's memory bounded: larger files are refused with a clear message.
const maxFileBytes = 32 << 20

type fileStats struct {
	Path  string `json:"path"`
	Lines int    `json:"lines"`
	Words int    `json:"words"`
	Chars int    `json:"chars"`
	Bytes int    `json:"bytes"`
}

type wordCount struct {
	Word  string `json:"word"`
	Count int    `json:"count"`
}

type envelope struct {
	Content  string         `json:"content"`
	Metadata map[string]any `json:"metadata"`
}

// failure is the error contract: {"error": "..."} on stdout and a non-zero exit (2: usage, 1: the files).
func fail(code int, format string, args ...any) {
	out, _ := json.Marshal(map[string]string{"error": fmt.Sprintf(format, args...)})
	fmt.Println(string(out))
	os.Exit(code)
}

func usage(flags *flag.FlagSet) func() {
	return func() {
		out := flags.Output()
		fmt.Fprint(out, "Count lines, words and characters of text files in the granted /data folder, and list the most frequent words\n\n")
		fmt.Fprint(out, "Usage: textstats [OPTIONS] <FILE>...\n\n")
		fmt.Fprint(out, "Arguments:\n  <FILE>...  Files or folders under /data, relative (notes.txt, docs) or absolute (/data/notes.txt); \".\" is all of /data\n\n")
		fmt.Fprint(out, "Options:\n")
		flags.PrintDefaults()
	}
}

// resolve maps a FILE argument to a guest path under /data, refusing paths that lead elsewhere (the sandbox
// would refuse them too, with a less helpful "bad file number").
func resolve(argument string) string {
	name := path.Clean(argument)
	if !path.IsAbs(name) {
		name = path.Join(dataRoot, name)
	}
	if name != dataRoot && !strings.HasPrefix(name, dataRoot+"/") {
		fail(1, "%s is outside %s: textstats reads only the granted folder; name files relative to it, e.g. notes.txt", argument, dataRoot)
	}
	return name
}

// analyse counts one file's text; binary files (with NUL bytes or invalid UTF-8) are refused.
func analyse(name string, words map[string]int, minLength int, caseSensitive bool) (fileStats, error) {
	info, err := os.Stat(name)
	if err != nil {
		return fileStats{}, err
	}
	if info.Size() > maxFileBytes {
		return fileStats{}, fmt.Errorf("%s is %d bytes; textstats reads files up to %d bytes", name, info.Size(), maxFileBytes)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return fileStats{}, err
	}
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return fileStats{}, fmt.Errorf("%s is not UTF-8 text", name)
	}
	text := string(data)
	stats := fileStats{Path: name, Bytes: len(data), Chars: utf8.RuneCount(data), Lines: strings.Count(text, "\n")}
	if len(text) > 0 && !strings.HasSuffix(text, "\n") {
		stats.Lines++
	}
	for _, field := range strings.Fields(text) {
		stats.Words++
		word := strings.TrimFunc(field, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
		if utf8.RuneCountInString(word) < minLength {
			continue
		}
		if !caseSensitive {
			word = strings.ToLower(word)
		}
		words[word]++
	}
	return stats, nil
}

// expand lists the files a FILE argument names: the file itself, or every regular file under a folder.
func expand(name string) ([]string, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{name}, nil
	}
	var files []string
	err = fs.WalkDir(os.DirFS(name), ".", func(entry string, d fs.DirEntry, walkErr error) error {
		if walkErr != nil {
			return walkErr
		}
		if d.Type().IsRegular() {
			files = append(files, path.Join(name, entry))
		}
		return nil
	})
	return files, err
}

func describe(err error, argument string) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("%s does not exist under %s; list the folder with FILE \".\" to see what is there", argument, dataRoot)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Sprintf("%s is outside what this tool may read: only files under %s are granted", argument, dataRoot)
	default:
		return err.Error()
	}
}

func main() {
	flags := flag.NewFlagSet("textstats", flag.ContinueOnError)
	// flag writes usage (and its own error line) to Output on both --help and a bad flag: collect it, and print
	// it only for --help, so a bad flag answers with one JSON error object.
	var help bytes.Buffer
	flags.SetOutput(&help)
	top := flags.Int("top", 5, "How many of the most frequent words to list, 0 to 50")
	minLength := flags.Int("min-length", 3, "Ignore words shorter than this many letters in the frequent-word list")
	caseSensitive := flags.Bool("case-sensitive", false, "Count \"The\" and \"the\" as different words")
	flags.Usage = usage(flags)
	if err := flags.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Stdout.Write(help.Bytes())
			return
		}
		fail(2, "%v; run --help for the options", err)
	}
	if *top < 0 || *top > 50 {
		fail(2, "-top must be from 0 to 50, got %d", *top)
	}
	if flags.NArg() == 0 {
		fail(2, "missing FILE: name one or more files or folders under %s, e.g. notes.txt or \".\"", dataRoot)
	}

	words := map[string]int{}
	var files []fileStats
	total := fileStats{Path: "total"}
	for _, argument := range flags.Args() {
		names, err := expand(resolve(argument))
		if err != nil {
			fail(1, "%s", describe(err, argument))
		}
		for _, name := range names {
			stats, err := analyse(name, words, *minLength, *caseSensitive)
			if err != nil {
				fail(1, "%s", describe(err, name))
			}
			files = append(files, stats)
			total.Lines += stats.Lines
			total.Words += stats.Words
			total.Chars += stats.Chars
			total.Bytes += stats.Bytes
		}
	}

	ranked := make([]wordCount, 0, len(words))
	for word, count := range words {
		ranked = append(ranked, wordCount{word, count})
	}
	sort.Slice(ranked, func(i, j int) bool {
		if ranked[i].Count != ranked[j].Count {
			return ranked[i].Count > ranked[j].Count
		}
		return ranked[i].Word < ranked[j].Word
	})
	if len(ranked) > *top {
		ranked = ranked[:*top]
	}

	var text strings.Builder
	fmt.Fprintf(&text, "%8s %8s %8s %8s  %s\n", "lines", "words", "chars", "bytes", "file")
	for _, stats := range append(files, total) {
		fmt.Fprintf(&text, "%8d %8d %8d %8d  %s\n", stats.Lines, stats.Words, stats.Chars, stats.Bytes, stats.Path)
	}
	if len(ranked) > 0 {
		parts := make([]string, len(ranked))
		for i, entry := range ranked {
			parts[i] = fmt.Sprintf("%s (%d)", entry.Word, entry.Count)
		}
		fmt.Fprintf(&text, "most frequent: %s\n", strings.Join(parts, ", "))
	}
	out, _ := json.Marshal(envelope{
		Content:  text.String(),
		Metadata: map[string]any{"files": files, "total": total, "top_words": ranked},
	})
	fmt.Println(string(out))
}
