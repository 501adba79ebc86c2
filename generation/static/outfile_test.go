package static

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPythonOutputFiles: a library function's parameter for a file it
// writes is marked output-path, so that the host keeps it in the task's
// work directory; "destination" is such a file only when its doc speaks of
// files (a route's destination is a place).
func TestPythonOutputFiles(t *testing.T) {
	t.Parallel()
	var doc pyDoc
	if err := json.Unmarshal([]byte(`{"params": {
		"destination": {"desc": "The second point, written the same way."},
		"dest": {"desc": "The file to save the chart to."},
		"output_path": {"desc": "Where to write the report."}}}`), &doc); err != nil {
		t.Fatal(err)
	}
	params := []pyParam{{Name: "destination", Kind: "pos"}, {Name: "dest", Kind: "pos"}, {Name: "output_path", Kind: "pos"}}
	_, props, _, ok := pyParams(params, &doc, map[string]bool{})
	if !ok {
		t.Fatal("pyParams() ok = false")
	}
	got := map[string]any{}
	for name, s := range props {
		got[name] = s.(map[string]any)["format"]
	}
	want := map[string]any{"destination": nil, "dest": "output-path", "output_path": "output-path"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pyParams() formats (-want +got):\n%s", diff)
	}
}
