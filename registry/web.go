package registry

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"net/url"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// The web page is rendered on the server with html/template, which escapes
// every card-supplied string for its context; pages load no script.

//go:embed templates/*.html
var templateFS embed.FS

// pages is parsed on first use, so that processes that never serve the web
// page (every agentnet command links this package) do not parse it.
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").ParseFS(templateFS, "templates/*.html"))
})

// webCSP forbids scripts and foreign content on the registry's pages: card
// text is escaped, and this makes a missed escape harmless too.
const webCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// webSkillRows caps the skills table of an agent page; the card below it
// holds them all.
const webSkillRows = 200

type indexView struct {
	Query, Tag               string
	IncludeDown              bool
	Hits                     []Hit
	Total, Up, Changed, Down int
	Next                     string
	Error                    string
}

// renderIndex writes the agents page for the query in form (q, tag, down,
// cursor). A bad query is shown on the page, not failed.
func renderIndex(ctx context.Context, svc *Service, form url.Values, w io.Writer) error {
	v := indexView{
		Query:       strings.TrimSpace(form.Get("q")),
		Tag:         strings.TrimSpace(form.Get("tag")),
		IncludeDown: form.Get("down") != "",
	}
	counts, err := svc.store.Count(ctx)
	if err != nil {
		return err
	}
	v.Up, v.Changed, v.Down = counts[StatusUp], counts[StatusChanged], counts[StatusDown]
	v.Total = v.Up + v.Changed + v.Down
	q := Query{Text: v.Query, Tag: v.Tag, Limit: MaxLimit, Cursor: form.Get("cursor")}
	var page Page
	if v.Query != "" {
		if v.IncludeDown {
			q.Statuses = Statuses
		}
		page, err = svc.Search(ctx, q)
	} else {
		page, err = svc.List(ctx, q)
	}
	var ie *InvalidError
	switch {
	case errors.As(err, &ie):
		v.Error = strings.Join(ie.Problems, "; ")
	case err != nil:
		return err
	}
	v.Hits = page.Hits
	if page.NextCursor != "" {
		next := url.Values{"cursor": {page.NextCursor}}
		for _, k := range []string{"q", "tag", "down"} {
			if form.Get(k) != "" {
				next.Set(k, form.Get(k))
			}
		}
		v.Next = "/?" + next.Encode()
	}
	return pages().ExecuteTemplate(w, "index.html", v)
}

type agentView struct {
	Rec        Record
	Skills     []a2a.AgentSkill
	MoreSkills int
	CardJSON   string
}

// renderAgent writes one agent's page, or returns an error wrapping
// ErrNotFound.
func renderAgent(ctx context.Context, svc *Service, id string, w io.Writer) error {
	rec, err := svc.Get(ctx, id)
	if err != nil {
		return err
	}
	// The page is public: a failed probe shows its category only.
	rec.Health.Error = PublicDetail(rec.Health.Error)
	v := agentView{Rec: rec}
	var card a2a.AgentCard
	if err := json.Unmarshal(rec.Card, &card); err == nil {
		v.Skills = card.Skills
		if len(v.Skills) > webSkillRows {
			v.MoreSkills = len(v.Skills) - webSkillRows
			v.Skills = v.Skills[:webSkillRows]
		}
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, rec.Card, "", "  "); err != nil {
		pretty.Write(rec.Card)
	}
	v.CardJSON = pretty.String()
	return pages().ExecuteTemplate(w, "agent.html", v)
}
