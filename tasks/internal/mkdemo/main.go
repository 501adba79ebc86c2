// Command mkdemo packs the demo suite directory into the deterministic zip
// archive that package tasks embeds. Run it through go generate:
//
//	go generate ./tasks
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/agentnet/agentnet/tasks/internal/demoarchive"
)

func main() {
	src := flag.String("src", "demo", "the demo suite directory")
	out := flag.String("out", "demo.zip", "the archive to write")
	flag.Parse()
	data, err := demoarchive.Pack(*src)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkdemo:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "mkdemo:", err)
		os.Exit(1)
	}
}
