package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Exit codes of the contract.
const (
	ExitOK      = 0 // done
	ExitFailed  = 1 // the command ran and failed
	ExitInvalid = 2 // bad usage or invalid input
)

// exitError carries an exit code with an error. Commands return it (through
// usageError, invalidInput or failed) and Main turns it into the exit code.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError marks err as bad usage: exit code 2.
func usageError(format string, args ...any) error {
	return &exitError{code: ExitInvalid, err: fmt.Errorf(format, args...)}
}

// invalidInput marks err as invalid input: exit code 2.
func invalidInput(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: ExitInvalid, err: err}
}

// silentFailure is returned by commands that already printed why they failed
// (a failed audit, a list of problems): exit with code and print nothing more.
type silentFailure struct{ code int }

func (s silentFailure) Error() string { return fmt.Sprintf("exit status %d", s.code) }

// exitCode maps an error to the contract's exit code.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var sf silentFailure
	if errors.As(err, &sf) {
		return sf.code
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return ExitFailed
}

// printError writes err as one line (or one line per problem for errors that
// hold several) prefixed with the program name once: a message that already
// starts with it (a command path, "agentnet bench: ...") keeps its own.
func printError(w io.Writer, err error) {
	var sf silentFailure
	if errors.As(err, &sf) {
		return
	}
	msg := strings.TrimSpace(err.Error())
	for _, line := range strings.Split(msg, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			fmt.Fprintln(w, prefixed(line))
		}
	}
}

// prefixed returns line with the program's name in front, unless it is
// there already.
func prefixed(line string) string {
	if rest, ok := strings.CutPrefix(line, "agentnet"); ok && (strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, ":")) {
		return line
	}
	return "agentnet: " + line
}
