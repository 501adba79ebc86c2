package generation

// bundleFormat describes agent.yaml to a model or a coding agent.
const bundleFormat = `An agent bundle is a directory with an agent.yaml file (YAML) of this form:

version: 1
name: textkit                      # the agent's name
description: Text statistics for plain-text documents: word frequencies, counts, readability.
repo: {source: repo}               # the repository: a path relative to the bundle directory, or a git URL (with ref)
setup: [[go, build, -o, .agentnet/bin/textkit, ./cmd/textkit]]   # commands run in the repo directory, in order (argv lists, never a shell line)
check: [[.agentnet/bin/textkit, --help]]                         # commands that must succeed in the repo directory
skills:                            # one skill per real capability (a subcommand, a distinct entry point)
  - id: word-frequency             # letters, digits, '.', '_', '-'
    name: Word frequency
    description: Count word frequencies in a text and list the most common words.   # specific: what, on which input, what output
    tags: [text, statistics]
    examples: [Which words occur most often in this file?]
    params:                        # JSON Schema of the skill's arguments (type: object)
      type: object
      properties:
        file: {type: string, format: path, description: the text file}   # format: path = an input file attached to the task
        n: {type: integer, default: 10}
        json: {type: boolean, description: print JSON}
      required: [file]
    run: ["{{repo}}/.agentnet/bin/textkit", top, --n, "{{n}}", --json, "{{json}}", "{{file}}"]   # argv template, never a shell
    timeout: 60s
    outputs: ["*.png"]             # optional: files the run writes that become artifacts

Rules of the argv templates: {{repo}} is the repo's directory, {{bundle}} the bundle's directory (where
agent.yaml is: put any wrapper script you write there, e.g. {{bundle}}/wrapper/run.py, never in the repo),
{{workdir}} the task's work directory (the current directory of the run, holding the input files; files
written there are returned), and every other {{name}} a declared parameter; setup and check may use
{{repo}} and {{bundle}}. An element whose parameter has no value is dropped together with a literal
flag right before it; a boolean parameter right after a literal flag makes it a switch (true keeps the flag
alone, false drops it); a list value expands into one element per item. A program named by a relative path
with a slash is looked up in the repo. No absolute paths, no "..". Each skill runs as a process in a fresh
work directory, so refer to the repo's files through {{repo}}.`
