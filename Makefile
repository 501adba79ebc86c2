# The README's test command is `make test`; CI (.ci/run) runs exactly that.
GO ?= go

.PHONY: test check demo-archive lexicon

test:
	./scripts/test-demo-repos
	$(GO) test -race -timeout 30m ./...

# Everything CI checks, plus formatting and module tidiness.
check:
	$(GO) mod tidy -diff
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(MAKE) test

# Re-pack the embedded demo suite after changing tasks/demo.
demo-archive:
	$(GO) generate ./tasks

# Rebuild the synonym table of internal/lexicon from WordNet (Debian: apt-get install wordnet-base).
lexicon:
	$(GO) generate ./internal/lexicon
