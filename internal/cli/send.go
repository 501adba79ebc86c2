package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/orchestrator"
)

// maxSendFile bounds a file sent with --file.
const maxSendFile = 32 << 20

// sendFlags are the options of send.
type sendFlags struct {
	files   []string
	data    string
	skill   string
	out     string
	timeout time.Duration
	asJSON  bool
	binding string
}

// sendResult is what send prints with --json.
type sendResult struct {
	URL       string         `json:"url"`
	Agent     string         `json:"agent"`
	TaskID    string         `json:"task_id,omitempty"`
	State     string         `json:"state"`
	Status    string         `json:"status,omitempty"` // the last status message
	Text      string         `json:"text"`
	Artifacts []sentArtifact `json:"artifacts"`
}

// sentArtifact is a file the agent answered with, saved under --out.
type sentArtifact struct {
	Name      string `json:"name"`
	Path      string `json:"path"`
	MediaType string `json:"media_type,omitempty"`
	Bytes     int    `json:"bytes"`
}

func newSendCmd(env *Env) *cobra.Command {
	var f sendFlags
	cmd := &cobra.Command{
		Use:   "send URL TEXT",
		Short: "Send one message to an A2A agent, print its answer and save its files",
		Long: `Send resolves the agent card at URL (/.well-known/agent-card.json), sends TEXT
as one message (with each --file attached, --data as a data part, and --skill
in its metadata to name the skill), waits for the task to end and prints the answer's text. Files the
agent answers with are saved under --out by their base name, never over an
existing file. The exit status is 1 when the task did not complete.`,
		Example: `  agentnet send http://127.0.0.1:9001/ "word frequencies of this text" --file notes.txt
  agentnet send http://127.0.0.1:9001/ "resize to 64 pixels wide" --file photo.png --skill resize --out thumbs/
  agentnet send http://127.0.0.1:9001/ "distance between these points" --data '{"from": [59.91, 10.75], "to": [60.39, 5.32]}'`,
		Args: exactArgs(2, "URL", "TEXT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSend(cmd.Context(), env, args[0], args[1], f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.files, "file", nil, "attach `FILE` to the message (repeatable)")
	fl.StringVar(&f.data, "data", "", "attach a data part: a JSON `OBJECT` (its fields bind the skill's parameters by name; {\"skill\": ID, \"arguments\": {...}} calls a skill with exactly those arguments)")
	fl.StringVar(&f.skill, "skill", "", "name the skill (its id on the card) in the message metadata")
	fl.StringVar(&f.out, "out", ".", "save the files of the answer in `DIR`")
	fl.DurationVar(&f.timeout, "timeout", 5*time.Minute, "bound on the whole exchange")
	fl.BoolVar(&f.asJSON, "json", false, "print the answer as JSON")
	fl.StringVar(&f.binding, "binding", "jsonrpc", "the A2A binding to speak: jsonrpc (1.0, or 0.3 for a 0.3 card), rest or grpc")
	return cmd
}

func runSend(ctx context.Context, env *Env, url, text string, f sendFlags) error {
	msg, err := sendMessage(url, text, f)
	if err != nil {
		return err
	}
	b, err := binding.Parse(f.binding)
	if err != nil {
		return usageError("send: --binding: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	hc := &http.Client{}
	card, err := agentcard.NewResolver(hc).Resolve(ctx, url)
	if err != nil {
		return fmt.Errorf("send: no agent card at %s: %w", url, err)
	}
	if f.skill != "" && !cardHasSkill(card, f.skill) {
		return usageError("send: the agent %q has no skill %q (it has %s)", card.Name, f.skill, skillIDs(card))
	}
	client, err := a2aclient.NewFromCard(ctx, card, binding.ClientOptions(b, hc, nil)...)
	if err != nil {
		return fmt.Errorf("send: the card of %s offers no %s interface: %w", url, b.Protocol(), err)
	}
	defer client.Destroy()
	ans, err := exchange(ctx, client, msg)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("send: no answer from %s within --timeout %s", url, f.timeout)
		}
		return fmt.Errorf("send: %s: %w", url, err)
	}
	res, err := saveAnswer(ans, f.out)
	if err != nil {
		return err
	}
	res.URL, res.Agent = url, card.Name
	return printAnswer(env, res, ans.state == a2a.TaskStateCompleted, f.asJSON)
}

// sendMessage checks send's arguments and builds the message: TEXT, each
// --file, and --skill in the metadata.
func sendMessage(url, text string, f sendFlags) (*a2a.Message, error) {
	if msg := cards.CheckURL(url); msg != "" {
		return nil, usageError("send: %s", msg)
	}
	if f.timeout <= 0 {
		return nil, usageError("send: --timeout must be positive, got %s", f.timeout)
	}
	if fi, err := os.Stat(f.out); err != nil || !fi.IsDir() {
		return nil, usageError("send: --out %s: not a directory", f.out)
	}
	parts := []*a2a.Part{a2a.NewTextPart(text)}
	for _, path := range f.files {
		p, err := filePartOf(path)
		if err != nil {
			return nil, usageError("send: --file %s: %v", path, err)
		}
		parts = append(parts, p)
	}
	if f.data != "" {
		var obj map[string]any
		dec := json.NewDecoder(strings.NewReader(f.data))
		if err := dec.Decode(&obj); err != nil || obj == nil || dec.More() {
			why := "want one JSON object"
			if err != nil {
				why = err.Error()
			}
			return nil, usageError("send: --data: %s", why)
		}
		parts = append(parts, a2a.NewDataPart(obj))
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, parts...)
	if f.skill != "" {
		msg.Metadata = map[string]any{"skill": f.skill}
	}
	return msg, nil
}

// saveAnswer gathers the answer's text and saves its files under dir.
func saveAnswer(ans answer, dir string) (sendResult, error) {
	res := sendResult{TaskID: ans.taskID, State: orchestrator.StateName(ans.state), Status: ans.status, Artifacts: []sentArtifact{}}
	if ans.state == a2a.TaskStateCompleted {
		res.Status = "" // a progress note of a task that went well says nothing more
	}
	var b strings.Builder
	for _, p := range ans.parts {
		switch c := p.Content.(type) {
		case a2a.Text:
			b.WriteString(string(c))
		case a2a.Data:
			b.WriteString(fmt.Sprint(c.Value))
		case a2a.Raw:
			saved, err := saveArtifact(dir, p.Filename, []byte(c))
			if err != nil {
				return res, fmt.Errorf("send: save %q: %w", p.Filename, err)
			}
			res.Artifacts = append(res.Artifacts, sentArtifact{Name: filepath.Base(saved), Path: saved, MediaType: p.MediaType, Bytes: len(c)})
		}
	}
	res.Text = b.String()
	return res, nil
}

// printAnswer prints res as text (the files saved on stderr) or JSON; a
// task that did not complete is a failure, said in one line.
func printAnswer(env *Env, res sendResult, completed, asJSON bool) error {
	if asJSON {
		if err := writeJSON(env.Stdout, res); err != nil {
			return err
		}
		if !completed {
			return silentFailure{code: ExitFailed}
		}
		return nil
	}
	fmt.Fprint(env.Stdout, res.Text)
	if res.Text != "" && !strings.HasSuffix(res.Text, "\n") {
		fmt.Fprintln(env.Stdout)
	}
	for _, a := range res.Artifacts {
		fmt.Fprintf(env.Stderr, "agentnet send: saved %s (%d bytes)\n", a.Path, a.Bytes)
	}
	if completed {
		return nil
	}
	why := "agentnet send: the task ended " + res.State
	if res.Status != "" {
		why += ": " + oneLine(res.Status, 300)
	}
	return errors.New(why)
}

// answer is the end of one exchange: the task's last state, its last
// status text and the parts of its artifacts (or of a direct message).
type answer struct {
	taskID string
	state  a2a.TaskState
	status string
	parts  []*a2a.Part
}

// exchange sends msg as a stream and follows the task until it ends,
// polling it when the stream closes first.
func exchange(ctx context.Context, client *a2aclient.Client, msg *a2a.Message) (answer, error) {
	var ans answer
	arts := map[a2a.ArtifactID]*a2a.Artifact{}
	var order []a2a.ArtifactID
	add := func(a *a2a.Artifact, appendTo bool) {
		if a == nil {
			return
		}
		if prev, ok := arts[a.ID]; ok && appendTo {
			prev.Parts = append(prev.Parts, a.Parts...)
			return
		}
		if _, ok := arts[a.ID]; !ok {
			order = append(order, a.ID)
		}
		cp := *a
		arts[a.ID] = &cp
	}
	for ev, err := range client.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg}) {
		if err != nil {
			return ans, err
		}
		switch e := ev.(type) {
		case *a2a.Message:
			ans.state, ans.parts = a2a.TaskStateCompleted, e.Parts
			return ans, nil
		case *a2a.Task:
			ans.taskID, ans.state, ans.status = string(e.ID), e.Status.State, orchestrator.MessageText(e.Status.Message)
			for _, a := range e.Artifacts {
				add(a, false)
			}
		case *a2a.TaskStatusUpdateEvent:
			ans.taskID, ans.state = string(e.TaskID), e.Status.State
			if t := orchestrator.MessageText(e.Status.Message); t != "" {
				ans.status = t
			}
		case *a2a.TaskArtifactUpdateEvent:
			add(e.Artifact, e.Append)
		}
	}
	for delay := 50 * time.Millisecond; !ans.state.Terminal() && ans.taskID != ""; delay = min(delay*2, time.Second) {
		select {
		case <-ctx.Done():
			return ans, ctx.Err()
		case <-time.After(delay):
		}
		task, err := client.GetTask(ctx, &a2a.GetTaskRequest{ID: a2a.TaskID(ans.taskID)})
		if err != nil {
			return ans, err
		}
		ans.state, ans.status = task.Status.State, orchestrator.MessageText(task.Status.Message)
		for _, a := range task.Artifacts {
			add(a, false)
		}
	}
	for _, id := range order {
		ans.parts = append(ans.parts, arts[id].Parts...)
	}
	return ans, nil
}

// filePartOf reads path (a regular file of at most maxSendFile bytes) into
// a file part named by its base name.
func filePartOf(path string) (*a2a.Part, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > maxSendFile {
		return nil, fmt.Errorf("%d bytes, more than the %d a message may carry", fi.Size(), maxSendFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	mt := mime.TypeByExtension(filepath.Ext(path))
	if mt == "" {
		mt = http.DetectContentType(data)
	}
	return &a2a.Part{Content: a2a.Raw(data), Filename: filepath.Base(path), MediaType: mt}, nil
}

// saveArtifact writes data into dir under the base name of name (an agent
// chooses it: it never reaches outside dir), adding -2, -3, ... before the
// extension rather than overwriting a file.
func saveArtifact(dir, name string, data []byte) (string, error) {
	base := filepath.Base(filepath.Clean("/" + strings.ReplaceAll(name, "\\", "/")))
	if base == "/" || base == "." || strings.HasPrefix(base, ".") {
		base = "artifact" + strings.TrimLeft(base, "./")
	}
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	for n := 1; n < 1000; n++ {
		p := filepath.Join(dir, base)
		if n > 1 {
			p = filepath.Join(dir, fmt.Sprintf("%s-%d%s", stem, n, ext))
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		return p, werr
	}
	return "", fmt.Errorf("too many files named %s in %s", base, dir)
}

func cardHasSkill(card *a2a.AgentCard, id string) bool {
	for _, s := range card.Skills {
		if s.ID == id {
			return true
		}
	}
	return false
}

func skillIDs(card *a2a.AgentCard) string {
	var ids []string
	for _, s := range card.Skills {
		ids = append(ids, s.ID)
	}
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}
