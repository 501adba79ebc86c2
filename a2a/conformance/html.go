package conformance

import (
	"html/template"
	"io"
	"strings"
)

// htmlReport is the HTML form of a report: one table per endpoint (and for
// the fleet), a row per result, coloured by status, and the summary.
var htmlReport = template.Must(template.New("audit").Funcs(template.FuncMap{
	"lower": func(s Status) string { return strings.ToLower(string(s)) },
	"or":    func(a, b string) string { return map[bool]string{true: a, false: b}[a != ""] },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>A2A audit</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;width:100%;margin:.5em 0 2em}
th,td{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f4f4f4}
.pass{color:#176f2c}.fail{color:#b00020;font-weight:600}.skip{color:#777}
code{font-size:12px}.summary{font-weight:600}
</style></head><body>
<h1>A2A audit</h1>
<p class="summary" id="summary">{{.Summary}}</p>
{{range .Endpoints}}<h2>{{.URL}}{{if .Name}} — {{.Name}}{{end}}</h2>
{{if .Versions}}<p>A2A versions probed: {{range $i, $v := .Versions}}{{if $i}}, {{end}}{{$v}}{{end}}</p>{{end}}
<table class="results"><thead><tr><th>Status</th><th>Level</th><th>Check</th><th>Version</th><th>Requirement</th><th>What holds / why not</th></tr></thead><tbody>
{{range .Results}}<tr class="{{lower .Status}}"><td class="{{lower .Status}}">{{.Status}}</td><td>{{.Level}}</td><td><code>{{.ID}}</code></td><td>{{or .Version "-"}}</td><td>{{.Ref}}</td><td>{{or .Reason .Title}}</td></tr>
{{end}}</tbody></table>
{{end}}{{if .Fleet}}<h2>Fleet</h2>
<table class="results"><thead><tr><th>Status</th><th>Level</th><th>Check</th><th>Requirement</th><th>What holds / why not</th></tr></thead><tbody>
{{range .Fleet}}<tr class="{{lower .Status}}"><td class="{{lower .Status}}">{{.Status}}</td><td>{{.Level}}</td><td><code>{{.ID}}</code></td><td>{{.Ref}}</td><td>{{or .Reason .Title}}</td></tr>
{{end}}</tbody></table>{{end}}
</body></html>
`))

// WriteHTML writes the report as one self-contained HTML page. Every text
// from the audited endpoints is escaped.
func (r *Report) WriteHTML(w io.Writer) error { return htmlReport.Execute(w, r) }
