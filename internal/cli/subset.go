package cli

import (
	"path"

	"github.com/agentnet/agentnet/tasks"
)

// subset narrows s in place to the repos whose id matches reposGlob and the
// tasks whose id matches tasksGlob and whose repos (a single task's repo,
// every step's repo of a chain) are all kept; a commission names no repo and
// is kept when its id matches. An empty glob matches everything. A
// malformed glob, or globs that leave no task, are usage errors.
func subset(s *tasks.Suite, tasksGlob, reposGlob string) error {
	if tasksGlob == "" && reposGlob == "" {
		return nil
	}
	for flag, g := range map[string]string{"--tasks": tasksGlob, "--repos": reposGlob} {
		if _, err := path.Match(g, ""); err != nil {
			return usageError("%s %q: %v", flag, g, err)
		}
	}
	match := func(glob, id string) bool {
		ok, _ := path.Match(glob, id)
		return glob == "" || ok
	}
	keepRepo := map[string]bool{}
	var repos []tasks.Repo
	for _, r := range s.Repos {
		if match(reposGlob, r.ID) {
			keepRepo[r.ID] = true
			repos = append(repos, r)
		}
	}
	var cases []tasks.Case
	for _, c := range s.Cases {
		if !match(tasksGlob, c.ID) {
			continue
		}
		ok := c.Repo == "" || keepRepo[c.Repo]
		for _, st := range c.Steps {
			ok = ok && keepRepo[st.Repo]
		}
		if ok {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		return usageError("no task of suite %s matches --tasks %q --repos %q", s.Name, tasksGlob, reposGlob)
	}
	s.Repos, s.Cases = repos, cases
	return nil
}
