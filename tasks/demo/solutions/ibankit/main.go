// Command ibankit-answers calls the ibankit library the way the demo's
// answer key (solutions.yaml) needs: check IBAN, find FILE, format IBAN STYLE.
// It prints the library's results as JSON, or text for format.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"example.com/ibankit"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: ibankit-answers check IBAN | find FILE | format IBAN STYLE")
		os.Exit(2)
	}
	var out any
	switch os.Args[1] {
	case "check":
		out = ibankit.Check(os.Args[2])
	case "find":
		text, err := os.ReadFile(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		out = ibankit.Find(string(text))
	case "format":
		s, err := ibankit.Format(os.Args[2], os.Args[3])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(s)
		return
	default:
		fmt.Fprintf(os.Stderr, "unknown command %q\n", os.Args[1])
		os.Exit(2)
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(b))
}
