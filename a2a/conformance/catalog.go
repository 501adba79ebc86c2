package conformance

import "fmt"

// The ids of the checks. Checks of the JSON-RPC interface run once per A2A
// version the card declares; Result.Version tells them apart.
const (
	CardFetch       = "card.fetch"
	CardLegacyPath  = "card.legacy-path"
	CardContentType = "card.content-type"
	CardJSON        = "card.json"

	CardSigned          = "card.signed"
	CardSignatureHeader = "card.signature-header"
	CardSignatureValid  = "card.signature-valid"

	CardSchema    = "card.schema"
	CardNullLists = "card.null-lists"

	LintRequiredStrings    = "lint.required-strings"
	LintProtocolVersion    = "lint.protocol-version"
	LintMIMEModes          = "lint.mime-modes"
	LintSkills             = "lint.skills"
	LintUniqueSkillIDs     = "lint.unique-skill-ids"
	LintTagsExamples       = "lint.tags-examples"
	LintReachableURL       = "lint.reachable-url"
	LintTransport          = "lint.transport"
	LintGenericDescription = "lint.generic-description"
	LintSkillDescription   = "lint.skill-description"
	LintOther              = "lint.other"

	RPCParseError     = "rpc.parse-error"
	RPCInvalidRequest = "rpc.invalid-request"
	RPCMethodNotFound = "rpc.method-not-found"
	RPCInvalidParams  = "rpc.invalid-params"
	RPCIDEcho         = "rpc.id-echo"
	RPCNotification   = "rpc.notification"
	RPCContentType    = "rpc.content-type"

	CoreSend           = "core.send"
	CoreGetTask        = "core.get-task"
	CoreHistoryLength  = "core.history-length"
	CoreGetUnknown     = "core.get-unknown"
	CoreCancelUnknown  = "core.cancel-unknown"
	CoreCancelFinished = "core.cancel-finished"
	CoreFollowUp       = "core.follow-up"

	StreamContentType = "stream.content-type"
	StreamEvents      = "stream.events"
	StreamCloses      = "stream.closes"
	StreamUnsupported = "stream.unsupported"
	PushConfig        = "push.config"
	PushUnsupported   = "push.unsupported"

	RESTSend           = "rest.send"
	RESTGetTask        = "rest.get-task"
	RESTNotFound       = "rest.task-not-found"
	RESTErrorInfo      = "rest.error-info"
	RESTCancelNotFound = "rest.cancel-not-found"
	RESTCancelFinished = "rest.cancel-finished"
	RESTListTasks      = "rest.list-tasks"
	RESTStream         = "rest.stream"
	RESTSubscribe      = "rest.subscribe-finished"
	RESTVersion        = "rest.version"
	RESTContentType    = "rest.content-type"

	GRPCSend           = "grpc.send"
	GRPCGetTask        = "grpc.get-task"
	GRPCNotFound       = "grpc.task-not-found"
	GRPCErrorInfo      = "grpc.error-info"
	GRPCCancelNotFound = "grpc.cancel-not-found"
	GRPCCancelFinished = "grpc.cancel-finished"
	GRPCListTasks      = "grpc.list-tasks"
	GRPCStream         = "grpc.stream"
	GRPCSubscribe      = "grpc.subscribe-finished"
	GRPCVersion        = "grpc.version"

	RPCListTasks = "rpc.list-tasks"
	RPCVersion   = "rpc.version"

	BindingEquivalent = "binding.equivalent"

	FleetDuplicateNames    = "fleet.duplicate-names"
	FleetIndistinguishable = "fleet.indistinguishable"
	FleetBlurring          = "fleet.blurring"
)

var catalog = []Check{
	{CardFetch, Must, "discovery", "the card is served at /.well-known/agent-card.json with HTTP 200", "CARD-DISC-001"},
	{CardLegacyPath, May, "discovery", "the pre-0.3 path /.well-known/agent.json serves the card too", "A2A 0.2 §5.3"},
	{CardContentType, Must, "discovery", "the card is served as application/json", "A2A §8.2"},
	{CardJSON, Must, "discovery", "the card is one JSON object", "CARD-DISC-001"},

	{CardSignatureHeader, Must, "signature", "every signature's protected header names its alg and kid", "CARD-SIGN-003"},
	{CardSignatureValid, Must, "signature", "a signature verifies over the card's RFC 8785 canonical JSON without signatures (key: the embedded jwk or a trusted key; jku is not fetched)", "CARD-SIGN-001"},
	{CardSigned, May, "signature", "the card carries a signature", "A2A §8.4"},

	{CardSchema, Must, "schema", "the card validates strictly against the schema of the protocol version it declares", "CARD-STRUCT-001"},
	{CardNullLists, Must, "schema", "no list in the card is null", "CARD-STRUCT-001"},

	{LintRequiredStrings, Must, "lint", "required strings are not empty", "CARD-STRUCT-001"},
	{LintProtocolVersion, Must, "lint", "every protocol version is MAJOR.MINOR (a patch number is tolerated)", "VER-CLIENT-002"},
	{LintMIMEModes, Should, "lint", "input and output modes are media types (type/subtype)", "A2A §4.4.1"},
	{LintSkills, Should, "lint", "the card lists at least one skill", "A2A §4.4.5"},
	{LintUniqueSkillIDs, Must, "lint", "skill ids are unique", "A2A §4.4.5"},
	{LintTagsExamples, Should, "lint", "every skill has tags and examples", "A2A §4.4.5"},
	{LintReachableURL, Must, "lint", "interface URLs are addresses callers can reach (not 0.0.0.0, not a container name)", "CARD-PROTO-002"},
	{LintTransport, Must, "lint", "transports are declared consistently (known bindings; the 0.3 url and preferredTransport match an interface)", "CARD-PROTO-001"},
	{LintGenericDescription, Should, "lint", "descriptions say what this agent does (not a generic phrase)", "SW-A²-Bench routing"},
	{LintSkillDescription, Should, "lint", "skill descriptions are long enough to route on (5 words or more)", "SW-A²-Bench routing"},
	{LintOther, Should, "lint", "the other lint rules of the cards package hold", ""},

	{RPCParseError, Must, "jsonrpc", "invalid JSON is answered with -32700", "JSON-RPC 2.0 §5.1"},
	{RPCInvalidRequest, Must, "jsonrpc", "no method, a jsonrpc other than 2.0 or an object id is answered with -32600", "JSON-RPC 2.0 §5.1"},
	{RPCMethodNotFound, Must, "jsonrpc", "an unknown method is answered with -32601", "JSON-RPC 2.0 §5.1"},
	{RPCInvalidParams, Must, "jsonrpc", "malformed params are answered with -32602", "CORE-ERR-002"},
	{RPCIDEcho, Must, "jsonrpc", "responses echo the request id, string or number", "JSON-RPC 2.0 §5"},
	{RPCNotification, Should, "jsonrpc", "a notification (a request without id) gets no JSON-RPC response", "JSON-RPC 2.0 §4.1"},
	{RPCContentType, Must, "jsonrpc", "JSON-RPC responses are served as application/json", "A2A §9.1"},

	{CoreSend, Must, "core", "message/send returns a task or a message", "CORE-SEND-001"},
	{CoreGetTask, Must, "core", "tasks/get returns the task", "CORE-GET-001"},
	{CoreHistoryLength, Must, "core", "tasks/get returns no more history than historyLength", "CORE-HIST-002"},
	{CoreGetUnknown, Must, "core", "tasks/get of an unknown id is answered with -32001", "CORE-GET-002"},
	{CoreCancelUnknown, Must, "core", "tasks/cancel of an unknown id is answered with -32001", "CORE-CANCEL-003"},
	{CoreCancelFinished, Must, "core", "tasks/cancel of a finished task is answered with -32002", "CORE-CANCEL-002"},
	{CoreFollowUp, Must, "core", "a follow-up message on the same task continues it, or is refused with -32004 once it is finished", "CORE-SEND-002"},

	{StreamContentType, Must, "capabilities", "declared streaming: message/stream answers with text/event-stream", "CORE-STREAM-001"},
	{StreamEvents, Must, "capabilities", "declared streaming: every event is a whole JSON-RPC response carrying a stream event", "JSONRPC-SSE-001"},
	{StreamCloses, Must, "capabilities", "declared streaming: the stream closes after the final event", "CORE-STREAM-003"},
	{StreamUnsupported, Must, "capabilities", "streaming not declared: message/stream is refused with -32004", "CORE-CAP-002"},
	{PushConfig, Must, "capabilities", "declared push notifications: a config can be set and read back", "A2A §3.1.7"},
	{PushUnsupported, Must, "capabilities", "push notifications not declared: setting a config is refused with -32003", "CORE-CAP-001"},

	{RPCListTasks, Must, "jsonrpc", "ListTasks pages one task at a time with nextPageToken, present on every page and empty on the last", "CORE-LIST-002"},
	{RPCVersion, Must, "jsonrpc", "a request with an unsupported A2A-Version header is refused with -32009 (VersionNotSupportedError)", "VER-SERVER-001"},

	{RESTSend, Must, "rest", "POST /message:send returns a task or a message with HTTP 200", "HTTP_JSON-URL-001"},
	{RESTGetTask, Must, "rest", "GET /tasks/{id} returns the task", "CORE-GET-001"},
	{RESTNotFound, Must, "rest", "GET /tasks/{unknown} is answered 404 Not Found", "HTTP_JSON-STATUS-001"},
	{RESTErrorInfo, Must, "rest", "errors are google.rpc.Status JSON whose details hold an ErrorInfo (reason TASK_NOT_FOUND, domain a2a-protocol.org)", "HTTP_JSON-ERR-002"},
	{RESTCancelNotFound, Must, "rest", "POST /tasks/{unknown}:cancel is answered 404 Not Found", "CORE-CANCEL-003"},
	{RESTCancelFinished, Must, "rest", "POST /tasks/{id}:cancel of a finished task is refused with 400 TASK_NOT_CANCELABLE", "HTTP_JSON-STATUS-001"},
	{RESTListTasks, Must, "rest", "GET /tasks?pageSize=1 pages with nextPageToken, present on every page and empty on the last", "CORE-LIST-002"},
	{RESTStream, Must, "rest", "declared streaming: POST /message:stream answers Server-Sent Events whose data are StreamResponse JSON", "HTTP_JSON-SSE-001"},
	{RESTSubscribe, Must, "rest", "declared streaming: POST /tasks/{id}:subscribe of a finished task is refused with 400 UNSUPPORTED_OPERATION", "A2A §3.1.6"},
	{RESTVersion, Must, "rest", "an unsupported A2A-Version header is refused with 400 VERSION_NOT_SUPPORTED", "VER-SERVER-001"},
	{RESTContentType, Should, "rest", "responses are served as application/a2a+json", "HTTP_JSON-SVC-001"},

	{GRPCSend, Must, "grpc", "SendMessage returns a task or a message", "GRPC-SVC-001"},
	{GRPCGetTask, Must, "grpc", "GetTask returns the task", "CORE-GET-001"},
	{GRPCNotFound, Must, "grpc", "GetTask of an unknown id fails with NOT_FOUND", "GRPC-ERR-002"},
	{GRPCErrorInfo, Must, "grpc", "the status details hold an ErrorInfo (reason TASK_NOT_FOUND, domain a2a-protocol.org)", "GRPC-ERR-001"},
	{GRPCCancelNotFound, Must, "grpc", "CancelTask of an unknown id fails with NOT_FOUND", "CORE-CANCEL-003"},
	{GRPCCancelFinished, Must, "grpc", "CancelTask of a finished task fails with FAILED_PRECONDITION (TASK_NOT_CANCELABLE)", "GRPC-ERR-002"},
	{GRPCListTasks, Must, "grpc", "ListTasks pages one task at a time with next_page_token, empty on the last page", "CORE-LIST-002"},
	{GRPCStream, Must, "grpc", "declared streaming: SendStreamingMessage streams StreamResponse messages and ends", "GRPC-ERR-003"},
	{GRPCSubscribe, Must, "grpc", "declared streaming: SubscribeToTask of a finished task fails with FAILED_PRECONDITION (UNSUPPORTED_OPERATION)", "A2A §3.1.6"},
	{GRPCVersion, Must, "grpc", "unsupported a2a-version metadata fails with FAILED_PRECONDITION (VERSION_NOT_SUPPORTED)", "VER-SERVER-001"},

	{BindingEquivalent, Must, "bindings", "the same message gets the same answer over every binding the card declares", "BIND-EQUIV-001"},

	{FleetDuplicateNames, Must, "fleet", "no two agents share a name", "SW-A²-Bench"},
	{FleetIndistinguishable, Must, "fleet", "no two cards are too alike to route between (structural indistinguishability)", "SW-A²-Bench"},
	{FleetBlurring, Should, "fleet", "no card's skills cover every skill of another (semantic blurring)", "SW-A²-Bench"},
}

var byID = func() map[string]Check {
	m := make(map[string]Check, len(catalog))
	for _, c := range catalog {
		if _, dup := m[c.ID]; dup {
			panic(fmt.Sprintf("conformance: duplicate check id %q", c.ID))
		}
		m[c.ID] = c
	}
	return m
}()

// Checks returns the catalog of checks, in the order the audit runs them.
func Checks() []Check { return append([]Check(nil), catalog...) }

func lookup(id string) Check {
	c, ok := byID[id]
	if !ok {
		panic(fmt.Sprintf("conformance: unknown check id %q", id))
	}
	return c
}
