package orchestrator

import (
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// TestQueryFirst: a step carrying one table whose instruction asks an
// aggregate of its columns goes to the agent with a skill that runs SQL,
// though another card shares its words and that one shares none; a step
// whose instruction asks no aggregate is ranked by words alone.
func TestQueryFirst(t *testing.T) {
	t.Parallel()
	card := func(name, skill, desc string) *a2a.AgentCard {
		return &a2a.AgentCard{Name: name, Description: desc, DefaultInputModes: []string{"text/plain", "application/json"},
			Skills: []a2a.AgentSkill{{ID: skill, Name: skill, Description: desc}}}
	}
	cands := []Candidate{
		{ID: "flat", Card: card("flattener", "flatten", "Flatten JSON records into one line per value.")},
		{ID: "db", Card: card("tabledb", "memory", "Execute an SQL query against data loaded in memory.")},
	}
	q := Query{Instruction: "These are JSON records: the average temp of each station, warmest first.",
		Types: []string{"application/json"}, Columns: []string{"station", "temp"}}
	d, err := NewBM25().Route(t.Context(), q, cands)
	if err != nil {
		t.Fatal(err)
	}
	if d.Agent == nil || d.Agent.ID != "db" || d.Skill != "memory" || len(d.Ranking) == 0 || d.Ranking[0].Agent.ID != "db" {
		t.Errorf("Route() = %+v, want tabledb's memory first", d)
	}
	q.Instruction = "Flatten these JSON records."
	if d, _ := NewBM25().Route(t.Context(), q, cands); d.Agent == nil || d.Agent.ID != "flat" {
		t.Errorf("Route(no aggregate) = %+v, want flattener", d)
	}
	q.Instruction, q.Columns = "These are JSON records: the average temp of each station.", nil
	if d, _ := NewBM25().Route(t.Context(), q, cands); d.Agent == nil || d.Agent.ID != "flat" {
		t.Errorf("Route(no table carried) = %+v, want flattener by its words", d)
	}
}

// TestTableColumns: the columns of the one table a step's message carries,
// none for two tables or none.
func TestTableColumns(t *testing.T) {
	t.Parallel()
	part := func(name, data string) *a2a.Part {
		p := a2a.NewRawPart([]byte(data))
		p.Filename = name
		return p
	}
	one := &a2a.Message{Parts: []*a2a.Part{a2a.NewTextPart("sum it"), part("log.csv", "crew,hours\nA,1\n")}}
	if got := tableColumns(one); len(got) != 2 || got[0] != "crew" {
		t.Errorf("tableColumns(one table) = %q, want [crew hours]", got)
	}
	two := &a2a.Message{Parts: []*a2a.Part{part("a.csv", "x,y\n"), part("b.json", `[{"k": 1}]`)}}
	if got := tableColumns(two); got != nil {
		t.Errorf("tableColumns(two tables) = %q, want none", got)
	}
}
