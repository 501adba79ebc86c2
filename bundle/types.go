package bundle

import (
	"github.com/invopop/jsonschema"

	"github.com/agentnet/agentnet/internal/schemax"
	"github.com/agentnet/agentnet/internal/yamlx"
)

// FileName is the name of the bundle file in a bundle directory.
const FileName = "agent.yaml"

// Bundle is a parsed agent.yaml.
type Bundle struct {
	Version     int         `json:"version" jsonschema:"required,enum=1,description=Format version; always 1."`
	Name        string      `json:"name" jsonschema:"required,minLength=1,description=The agent's name; it becomes the card's name."`
	Description string      `json:"description" jsonschema:"required,minLength=1,description=What the agent does; it becomes the card's description."`
	Repo        *RepoSource `json:"repo,omitempty" jsonschema:"description=The repository the agent wraps; without it the bundle directory is the repo."`
	Setup       []Command   `json:"setup,omitempty" jsonschema:"description=Environment synthesis: commands run in the repo directory, in order."`
	Check       []Command   `json:"check,omitempty" jsonschema:"description=Commands that must succeed in the repo directory, or the bundle is invalid."`
	Skills      []Skill     `json:"skills,omitempty" jsonschema:"description=The agent's skills, each run as a process per task."`
	Serve       Command     `json:"serve,omitempty" jsonschema:"description=Instead of skills with run: the bundle's own A2A server, started with {{port}} bound to a free port."`
	// SystemPackages are the Debian packages the skills need to build and
	// run (C libraries, Python modules from dist-packages, tools); an
	// image built for the agent holds their files.
	SystemPackages []string `json:"system_packages,omitempty" jsonschema:"description=Debian packages the skills need at build and run time (C libraries\\, system Python modules\\, tools); the docker and swarm runtimes put their files in the agent's image."`

	// Path is the agent.yaml the bundle was loaded from; Dir its directory.
	Path string `json:"-"`
	Dir  string `json:"-"`
}

// RepoSource says where the wrapped repository lives.
type RepoSource struct {
	Source string `json:"source" jsonschema:"required,minLength=1,description=A git URL or a path relative to the bundle directory."`
	Ref    string `json:"ref,omitempty" jsonschema:"description=A commit or tag (git URLs)."`
}

// Command is an argv: a program and its arguments, never a shell line.
type Command []string

// Skill is one skill of the agent.
type Skill struct {
	ID          string         `json:"id" jsonschema:"required,pattern=^[A-Za-z0-9][A-Za-z0-9._-]*$"`
	Name        string         `json:"name" jsonschema:"required,minLength=1"`
	Description string         `json:"description" jsonschema:"required,minLength=1"`
	Tags        []string       `json:"tags,omitempty"`
	Examples    []string       `json:"examples,omitempty"`
	InputModes  []string       `json:"input_modes,omitempty" jsonschema:"description=MIME types the skill accepts (default text/plain)."`
	OutputModes []string       `json:"output_modes,omitempty" jsonschema:"description=MIME types the skill produces (default text/plain)."`
	Params      map[string]any `json:"params,omitempty" jsonschema:"description=JSON Schema of the skill's arguments (type: object); format: path marks a file the run reads and format: output-path one it writes (both in the task's work directory); x-allow-dash: true lets a value begin with a dash where an option could stand; x-role says the part a parameter plays: input-file or input-text (what the run works on)\\, output\\, query (an expression it evaluates)\\, selector (which part of the input) or setting; without it the role is derived from the schema and the name (docs/bundle.md); x-accepts lists the media types an input-file parameter takes or an output writes."`
	Run         Command        `json:"run,omitempty" jsonschema:"description=argv template: {{repo}} {{bundle}} {{workdir}} and {{param}} placeholders; never a shell."`
	Stdin       string         `json:"stdin,omitempty" jsonschema:"description=\"{{param}}\": what the run reads on standard input — the file of a path parameter, or the text of any other; nothing when the parameter has no value."`
	Timeout     Duration       `json:"timeout,omitzero"`
	Outputs     []string       `json:"outputs,omitempty" jsonschema:"description=Globs of files the run writes in its work directory that become artifacts."`

	schema *schemax.Schema
}

// JSONSchema describes a command.
func (Command) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:        "array",
		MinItems:    ptr(uint64(1)),
		Items:       &jsonschema.Schema{Type: "string"},
		Description: "argv: a program and its arguments.",
	}
}

// Duration is a positive duration written as a Go duration string ("90s", "2m").
type Duration = yamlx.Duration

func ptr[T any](v T) *T { return &v }
