// netmail: peer baseline for chipify using Go's net/mail.
//
// Usage: netmail [--per-record] CORPUS
//
// Each line of CORPUS (ended by '\n'; a last line without one still counts)
// is one address list, parsed with mail.ParseAddressList(line). Groups are
// flattened by net/mail itself. A line whose parse fails counts no addresses
// and one failure: ParseAddressList is all or nothing. An empty line is
// passed too (it fails with "mail: no address").
//
// Prints one line of counts:
//
//	records=N addresses=N valid=N failed=N
//
// valid counts addresses whose Address has an '@' (the last one) with
// non-empty text on both sides. With --per-record it prints, instead, one
// line per record holding that record's valid count.
//
// Standard library only; build with `go build -o build/netmail netmail.go`.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net/mail"
	"os"
	"strings"
)

const usage = "usage: netmail [--per-record] CORPUS"

func validAddr(addr string) bool {
	at := strings.LastIndexByte(addr, '@')
	return at > 0 && at < len(addr)-1
}

func main() {
	perRecord := false
	path := ""
	for _, arg := range os.Args[1:] {
		switch {
		case arg == "--per-record":
			perRecord = true
		case strings.HasPrefix(arg, "-") && arg != "-":
			fmt.Fprintln(os.Stderr, usage)
			os.Exit(64)
		case path == "":
			path = arg
		default:
			fmt.Fprintln(os.Stderr, usage)
			os.Exit(64)
		}
	}
	if path == "" {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(64)
	}

	text, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "netmail: %v\n", err)
		os.Exit(1)
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	var records, addresses, valid, failed int
	for len(text) > 0 {
		var line []byte
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			line, text = text, nil
		}
		records++
		recordValid := 0
		list, err := mail.ParseAddressList(string(line))
		if err != nil {
			failed++
		} else {
			addresses += len(list)
			for _, a := range list {
				if validAddr(a.Address) {
					recordValid++
				}
			}
		}
		valid += recordValid
		if perRecord {
			fmt.Fprintln(out, recordValid)
		}
	}
	if !perRecord {
		fmt.Fprintf(out, "records=%d addresses=%d valid=%d failed=%d\n", records, addresses, valid, failed)
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "netmail: cannot write output: %v\n", err)
		os.Exit(1)
	}
}
