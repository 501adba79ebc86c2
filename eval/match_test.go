package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/tasks"
)

// TestMatchPairsReadsLabelsAndParams checks the readings beyond the
// descriptions: subcommands whose boilerplate descriptions say nothing
// match by their names, several of them one capability, and one program
// matches a capability its parameter offers.
func TestMatchPairsReadsLabelsAndParams(t *testing.T) {
	t.Parallel()
	truth := []tasks.Skill{
		{ID: "image-blend", Description: "Blend two images together with a blend mode such as multiply, screen or overlay."},
		{ID: "image-rotate", Description: "Rotate an image by an angle, optionally growing the canvas."},
		{ID: "image-info", Description: "Report an image's format, width and height."},
	}
	gen := []SkillText{
		{ID: "blend-multiply", Name: "imgx blend multiply", Description: "Run the blend multiply command of imgx (usage: imgx blend multiply [flags])."},
		{ID: "blend-screen", Name: "imgx blend screen", Description: "Run the blend screen command of imgx (usage: imgx blend screen [flags])."},
		{ID: "transform", Name: "imgx transform", Description: "Geometric operations of imgx.", Params: []string{"rotate: degrees to turn by", "grow"}},
		{ID: "version", Name: "imgx version", Description: "Print the version of imgx."},
	}
	got := MatchPairs(gen, truth, DefaultMatchThreshold)
	want := [][]bool{{true, false, false}, {true, false, false}, {false, true, false}, {false, false, false}}
	if !cmp.Equal(got, want) {
		t.Errorf("MatchPairs = %v, want %v", got, want)
	}
}
