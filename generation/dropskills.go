package generation

import (
	"bytes"
	"fmt"
	"os"

	"go.yaml.in/yaml/v4"
)

// dropSkills removes the skills with the given ids from the agent.yaml at
// path, keeping the rest of the file (order, comments, style) as it is.
func dropSkills(path string, ids map[string]bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return fmt.Errorf("%s: not a mapping", path)
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "skills" || root.Content[i+1].Kind != yaml.SequenceNode {
			continue
		}
		seq := root.Content[i+1]
		kept := seq.Content[:0]
		for _, item := range seq.Content {
			if !ids[mappingValue(item, "id")] {
				kept = append(kept, item)
			}
		}
		seq.Content = kept
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := enc.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func mappingValue(n *yaml.Node, key string) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1].Value
		}
	}
	return ""
}
