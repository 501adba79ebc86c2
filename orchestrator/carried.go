package orchestrator

import (
	"mime"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/bundle"
)

// Fit is how well one skill fits the files a step carries.
type Fit int

const (
	// Unfit: a skill that cannot take one of the files, by its input
	// modes, or — taking any file — by its description, whose first
	// sentence names only other formats ("Split Ogg logical streams" for
	// a CSV). A skill whose modes leave the file out but whose description
	// names its format ("Extract the text of a PDF" with text/plain
	// modes) is not unfit: its modes come from parameter roles the
	// generator inferred, and a path given as a text argument is read as
	// a file all the same.
	Unfit Fit = iota
	// Takes: a skill that takes the files as any file (*/*, a card that
	// says nothing) or as plain text.
	Takes
	// Declares: a skill whose input modes name each file's type or its
	// family (image/* for a PNG).
	Declares
)

var fitNames = [...]string{Unfit: "unfit", Takes: "takes", Declares: "declares"}

func (f Fit) String() string { return fitNames[f] }

// carried returns the types the step's files are known by, dropping the
// unknown ("").
func carried(types []string) []string {
	var out []string
	for _, t := range types {
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

// skillFit is how the card's skill s fits files of the given types: the
// least fit of any one file. Its modes are the skill's inputModes, else
// the card's defaultInputModes.
func skillFit(card *a2a.AgentCard, s *a2a.AgentSkill, types []string) Fit {
	modes := s.InputModes
	if len(modes) == 0 {
		modes = card.DefaultInputModes
	}
	named := bundle.SkillInputTypes(s.Description, s.Examples)
	fit := Declares
	for _, t := range carried(types) {
		f := typeFit(modes, t)
		switch {
		case f == Takes && anyFile(modes) && len(named) > 0 && !bundle.Accepts(named, t) && t != "application/octet-stream":
			f = Unfit
		case f == Unfit && names(named, t):
			f = Takes
		}
		fit = min(fit, f)
	}
	return fit
}

// names reports whether the media types a description names include t
// itself or its family, not just any file.
func names(named []string, t string) bool {
	for _, n := range named {
		if n != "*/*" && specific(n, t) {
			return true
		}
	}
	return false
}

// cardFit is how a card fits the files: its best skill's fit, or for a
// card without skills its default modes' fit.
func cardFit(card *a2a.AgentCard, types []string) Fit {
	if card == nil {
		return Unfit
	}
	if len(card.Skills) == 0 {
		fit := Declares
		for _, t := range carried(types) {
			fit = min(fit, typeFit(card.DefaultInputModes, t))
		}
		return fit
	}
	fit := Unfit
	for i := range card.Skills {
		fit = max(fit, skillFit(card, &card.Skills[i], types))
	}
	return fit
}

// typeFit is how input modes fit one file of media type t: Declares for
// a mode naming t or its family, Takes for one taking any file or
// generic text (and for no modes at all), else Unfit.
func typeFit(modes []string, t string) Fit {
	if len(modes) == 0 {
		return Takes
	}
	fit := Unfit
	for _, m := range modes {
		if !modeTakes(m, t) {
			// A file of unknown type (application/octet-stream: no
			// name or bytes told it) may be what any file input takes.
			if t == "application/octet-stream" && !bundle.Textual(m) {
				fit = max(fit, Takes)
			}
			continue
		}
		f := Takes
		if specific(m, t) {
			f = Declares
		}
		fit = max(fit, f)
	}
	return fit
}

// specific reports whether a mode that takes t names it or its family
// (image/* for image/png) rather than any file, or, for a file known only
// as text, some textual format.
func specific(mode, t string) bool {
	mode, _, _ = mime.ParseMediaType(mode)
	if mode == "*" || mode == "*/*" {
		return false
	}
	if family, ok := strings.CutSuffix(mode, "/*"); ok {
		return strings.HasPrefix(t, family+"/")
	}
	return unX(mode) == unX(t)
}

// anyFile reports whether the modes take any file: none at all, or */*.
func anyFile(modes []string) bool {
	if len(modes) == 0 {
		return true
	}
	for _, m := range modes {
		if m, _, _ := mime.ParseMediaType(m); m == "*/*" || m == "*" {
			return true
		}
	}
	return false
}

// unX drops the x- of an unregistered subtype, as bundle.Accepts does.
func unX(mt string) string {
	if major, sub, ok := strings.Cut(mt, "/"); ok {
		return major + "/" + strings.TrimPrefix(sub, "x-")
	}
	return mt
}
