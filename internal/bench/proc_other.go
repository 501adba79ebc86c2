//go:build !unix

package bench

import "os/exec"

// inGroup leaves cmd as it is: without process groups only the command
// itself is killed on cancellation.
func inGroup(*exec.Cmd) {}

func killGroup(*exec.Cmd) {}
