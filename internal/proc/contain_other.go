//go:build !linux

package proc

// newMechanism returns process-group containment: cgroups and child
// subreapers are Linux's.
func newMechanism() mechanism { return pgroup{} }
