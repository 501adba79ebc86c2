package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/a2a/conformance"
	"github.com/agentnet/agentnet/cards"
)

func newAuditCmd(env *Env) *cobra.Command {
	var (
		asJSON, list     bool
		level, junitPath string
		htmlPath         string
		transport        string
		allowOrigins     []string
		trustedKeys      string
		timeout          time.Duration
		maxBody          int64
		parallel         int
	)
	cmd := &cobra.Command{
		Use:   "audit URL...",
		Short: "Interoperability audit of A2A endpoints (card, signature, schema, lint, each binding, fleet)",
		Long: `Audit checks A2A endpoints, agentnet's or anyone's, check by check: discovery
of the card at /.well-known/agent-card.json, strict schema validation for the
protocol version the card declares (1.0 or 0.3), lint, the JSON-RPC envelope
and its error codes, the core methods (message/send, tasks/get, tasks/cancel,
follow-ups) and the capabilities the card declares (streaming, push
notifications), for each A2A version the card offers. With several URLs it
also checks the fleet: names shared by two agents, cards too alike for a
router to tell apart, and cards whose skills cover another's.

Each check has a level, MUST, SHOULD or MAY, as in the A2A compatibility kit,
and a one-line reason when it fails. The exit status is 1 when a MUST check
fails. --level should leaves the MAY checks out of the report, --level must
the SHOULD checks too. --junit writes the report as JUnit XML for a CI: one
test case per check, a failed check a failure with its reason; --html writes
it as one HTML page. Every request is bounded by --timeout and --max-body,
and only the hosts and ports of the given URLs are contacted (and those given
with --allow-origin, such as a gRPC server on a port of its own).

The bindings come from the card's supportedInterfaces: JSON-RPC (1.0 and
0.3), HTTP+JSON (REST paths, HTTP status codes, the google.rpc.Status error
body) and gRPC (status codes, ErrorInfo details), each with ListTasks paged
by cursor, streams, SubscribeToTask and the A2A-Version header; then whether
the same message gets the same answer over each. --transport limits the
audit to one binding. The card's signature is checked too (A2A 1.0 section
8.4): against the key its protected header embeds, or only the keys of
--trusted-keys; a jku is never fetched.`,
		Example: `  agentnet audit http://127.0.0.1:8080/
  agentnet audit http://127.0.0.1:8081/ http://127.0.0.1:8082/ --json
  agentnet audit http://127.0.0.1:8080/ --level must --junit audit.xml --html audit.html
  agentnet audit http://127.0.0.1:9001/ --transport grpc --allow-origin 127.0.0.1:9000
  agentnet audit --list`,
		Args: func(cmd *cobra.Command, args []string) error {
			if list {
				return nil
			}
			return minArgs(1, "URL...")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if list {
				return writeCatalog(env, asJSON)
			}
			min, err := conformance.ParseLevel(level)
			if err != nil {
				return usageError("audit: --level: %v", err)
			}
			opts := []conformance.Option{conformance.WithTimeout(timeout), conformance.WithMaxBody(maxBody), conformance.WithParallel(parallel),
				conformance.WithAllowedOrigins(allowOrigins...)}
			switch {
			case transport == "all":
			case slices.Contains(conformance.Bindings, transport):
				opts = append(opts, conformance.WithBindings(transport))
			default:
				return usageError("audit: --transport: want %s or all, got %q", strings.Join(conformance.Bindings, ", "), transport)
			}
			if trustedKeys != "" {
				t, err := cards.LoadTrustedKeys(trustedKeys)
				if err != nil {
					return invalidInput(fmt.Errorf("audit: --trusted-keys: %w", err))
				}
				opts = append(opts, conformance.WithTrustedKeys(t))
			}
			rep, err := conformance.Audit(cmd.Context(), args, opts...)
			var bad *conformance.InvalidURLError
			if errors.As(err, &bad) {
				return usageError("audit: %v", err)
			}
			if err != nil {
				return fmt.Errorf("audit: %w", err)
			}
			rep = rep.AtLevel(min)
			if junitPath != "" {
				if err := rep.JUnit().WriteFile(junitPath); err != nil {
					return fmt.Errorf("audit: %w", err)
				}
			}
			if htmlPath != "" {
				if err := writeHTMLReport(htmlPath, rep); err != nil {
					return fmt.Errorf("audit: %w", err)
				}
			}
			if asJSON {
				enc := json.NewEncoder(env.Stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return fmt.Errorf("audit: write the report: %w", err)
				}
			} else if err := rep.WriteText(env.Stdout); err != nil {
				return fmt.Errorf("audit: write the report: %w", err)
			}
			if rep.Failed() {
				return silentFailure{code: ExitFailed}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.StringVar(&level, "level", "may", "report the checks of this level and the stronger ones: must, should or may")
	f.StringVar(&junitPath, "junit", "", "also write the report as JUnit XML to `FILE`")
	f.StringVar(&htmlPath, "html", "", "also write the report as one HTML page to `FILE`")
	f.StringVar(&transport, "transport", "all", "audit this binding only: jsonrpc, rest, grpc or all")
	f.StringArrayVar(&allowOrigins, "allow-origin", nil, "also contact this origin (scheme://host:port, or host:port for gRPC); repeatable")
	f.StringVar(&trustedKeys, "trusted-keys", "", "verify card signatures only against the public keys of this JWK Set `FILE`")
	f.BoolVar(&list, "list", false, "list the checks (id, level, category, what holds) and exit")
	f.DurationVar(&timeout, "timeout", conformance.DefaultTimeout, "bound on each request, and on each stream as a whole")
	f.Int64Var(&maxBody, "max-body", conformance.DefaultMaxBody, "bound on the bytes of each response read")
	f.IntVar(&parallel, "parallel", conformance.DefaultParallel, "endpoints audited at once")
	return cmd
}

func writeCatalog(env *Env, asJSON bool) error {
	checks := conformance.Checks()
	if asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(checks)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLEVEL\tCATEGORY\tREF\tWHAT HOLDS")
	for _, c := range checks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Level, c.Category, c.Ref, c.Title)
	}
	return tw.Flush()
}

func writeHTMLReport(path string, rep *conformance.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := rep.WriteHTML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
