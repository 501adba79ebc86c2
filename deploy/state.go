package deploy

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// State is a fleet as recorded on disk.
type State struct {
	Agents   []*Agent `json:"agents"`
	Registry string   `json:"registry,omitempty"` // where the cards were registered
}

// StateFile is the fleet state's path under the agentnet home directory.
func StateFile(home string) string { return filepath.Join(home, "fleet", "state.json") }

// LogDir is where the agents' logs go under the agentnet home directory.
func LogDir(home string) string { return filepath.Join(home, "fleet", "logs") }

// LoadState reads the fleet state; a missing file is an empty fleet.
func LoadState(home string) (*State, error) {
	data, err := os.ReadFile(StateFile(home))
	if errors.Is(err, os.ErrNotExist) {
		return &State{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read fleet state: %w", err)
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("read fleet state %s: %w", StateFile(home), err)
	}
	return &s, nil
}

// Save writes the fleet state atomically; an empty fleet removes the file.
func (s *State) Save(home string) error {
	file := StateFile(home)
	if len(s.Agents) == 0 {
		if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("save fleet state: %w", err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("save fleet state: %w", err)
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("save fleet state: %w", err)
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("save fleet state: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return fmt.Errorf("save fleet state: %w", err)
	}
	return nil
}
