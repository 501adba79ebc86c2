package conformance

import (
	"context"
	"encoding/json"
	"net/http"
)

// codeVersionNotSupported is VersionNotSupportedError's JSON-RPC code;
// codeUnauthenticated the code of a call that needs an authenticated
// caller (A2A 1.0's mapping of an authentication error).
const (
	codeVersionNotSupported = -32009
	codeUnauthenticated     = -31401
)

// listTasks pages through ListTasks one task at a time (A2A 1.0 only): the
// nextPageToken must be present on every page and empty on the last.
func (p *probe) listTasks(ctx context.Context) {
	if p.d.is03() {
		p.skip(RPCListTasks, "A2A 0.3 has no ListTasks")
		return
	}
	if p.noTask(RPCListTasks) {
		return
	}
	p.call(ctx, p.d.send, map[string]any{"message": p.d.message(p.nextID()+"-msg", p.r.sampleText(), "", "")})
	token, seen := "", 0
	for page := 1; page <= 3; page++ {
		params := map[string]any{"pageSize": 1}
		if token != "" {
			params["pageToken"] = token
		}
		rr, err := p.call(ctx, "ListTasks", params)
		if err != nil {
			p.failf(RPCListTasks, "ListTasks: %v", err)
			return
		}
		if rr.err != nil && rr.err.Code == codeUnauthenticated {
			p.skip(RPCListTasks, "%s: ListTasks lists a caller's tasks only to an authenticated caller, and the audit sends no credentials", oneLine(rr.err.Message))
			return
		}
		if rr.err != nil {
			p.failf(RPCListTasks, "ListTasks answered error %d: %s", rr.err.Code, oneLine(rr.err.Message))
			return
		}
		var res map[string]json.RawMessage
		if err := json.Unmarshal(rr.result, &res); err != nil {
			p.failf(RPCListTasks, "ListTasks: the result is %s, not an object", jsonKind(rr.result))
			return
		}
		var tasks []any
		json.Unmarshal(res["tasks"], &tasks)
		if len(tasks) > 1 {
			p.failf(RPCListTasks, "ListTasks with pageSize 1 returned %d tasks", len(tasks))
			return
		}
		seen += len(tasks)
		raw, ok := res["nextPageToken"]
		if !ok {
			p.failf(RPCListTasks, "page %d has no nextPageToken (CORE-LIST-004: it must always be present, \"\" on the last page)", page)
			return
		}
		json.Unmarshal(raw, &token)
		if token == "" {
			break
		}
	}
	if seen == 0 {
		p.failf(RPCListTasks, "ListTasks listed no task, though %s created %s", p.d.send, p.taskID())
		return
	}
	p.pass(RPCListTasks)
}

// version sends a request whose A2A-Version header names a version no agent
// speaks (A2A 1.0 only: a 0.3 agent has no version negotiation).
func (p *probe) version(ctx context.Context) {
	if p.d.is03() {
		p.skip(RPCVersion, "A2A 0.3 has no A2A-Version negotiation")
		return
	}
	body := request(p.nextID(), p.d.send, map[string]any{"message": p.d.message(p.nextID()+"-msg", p.r.sampleText(), "", "")})
	rep, err := p.r.c.do(ctx, http.MethodPost, p.url, body, map[string]string{"Content-Type": "application/json", "A2A-Version": unsupportedVersion})
	if err != nil {
		p.failf(RPCVersion, "%v", err)
		return
	}
	rr, err := decodeRPC(rep.Body)
	p.result(RPCVersion, wantCode(rr, err, codeVersionNotSupported))
}
