package main

import (
	"flag"
	"fmt"
	"time"
)

func main() {
	addr := flag.String("addr", ":8080", "listen `address` for the HTTP server")
	root := flag.String("root", ".", "directory to serve files from")
	workers := flag.Int("workers", 4, "number of worker goroutines")
	timeout := flag.Duration("timeout", 30*time.Second, "read timeout for requests")
	verbose := flag.Bool("v", false, "enable verbose logging")
	ratio := flag.Float64("cache-ratio", 0.5, "fraction of memory used for the cache")
	logfile := flag.String("log-file", "", "write logs to `path` instead of stderr")
	gzip := flag.Bool("gzip", true, "compress responses with gzip")
	flag.Parse()
	fmt.Println(*addr, *root, *workers, *timeout, *verbose, *ratio, *logfile, *gzip, flag.Args())
}
