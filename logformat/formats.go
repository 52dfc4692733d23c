package logformat

// Session log format versions. DSH wrote version 0 up to 0.1.2; later
// releases write newer versions beside the old file (see generations.go):
//
//	1  unreleased: v0's layout, legacy shapes normalised
//	2  0.1.3: the assistant stream inside assistant/message.data.stream,
//	   assistant/attempt, isSeeded + session/end-seed
//	3  0.1.5: the system prompt as a system/message surface event,
//	   tool/ptc-dispatch(-start) for Code Mode's sub-calls
//	4  0.1.7: tool/result carries a role "tool" message (no tool-result
//	   wrapper), developer/message, agent/harness
//
// docs/formats.md has the full table.

// NewestFormat is the newest session log format version this build reads.
const NewestFormat = 4

// formatAny is the version of a wrapped event stream, which has no
// header: every format's vocabulary is accepted.
const formatAny = -1

// FormatRelease is the oldest DSH release that writes format version v:
// "" for versions 0 and 1 (the release the ports follow, 0.1.1-rc.2,
// wrote version 0).
func FormatRelease(v int) string {
	switch v {
	case 2:
		return "0.1.3"
	case 3:
		return "0.1.5"
	case 4:
		return "0.1.7"
	}
	return ""
}

// migratedSystemID starts the id of the system/message upstream's v2→v3
// migration writes (v2-to-v3-system-<sha256>); no native v3 writer uses it.
// A log that holds one was first written in format 2 or older, so its
// tools ran on a release of that era: its calls are checked against the
// release of format 2, like the v2 generation beside it (a v2 log migrated
// from v0 cannot be told from one written in v2).
var migratedSystemID = []byte(`"id":"v2-to-v3-system-`)

// knownIn reports whether typ is an event type of format version v, as
// upstream's reader of that version knows it (KNOWN_SESSION_EVENT_TYPES):
// the v0 vocabulary less what later versions retired, plus what they added.
func knownIn(typ string, v int) bool {
	if isKnownType(typ) {
		if v < 1 {
			return true
		}
		switch typ {
		case "steering/message": // normalised to user/message from v1 on
			return false
		case "assistant/chunk": // inside assistant/message from v2 on
			return v < 2
		case "tool/code-dispatch", "tool/code-dispatch-start": // renamed ptc in v3
			return v < 3
		}
		return true
	}
	if v == formatAny {
		v = NewestFormat
	}
	switch typ {
	case "assistant/attempt", "deliverables/presented", "feedback/message-delete",
		"feedback/message-put", "fork/session-source", "image/offload", "model/selection",
		"session-log-deepseek/delivery-accepted", "subagent/catalog",
		"subagent/model-selection-policy":
		return v >= 2
	case "system/message", "tool/ptc-dispatch", "tool/ptc-dispatch-start":
		return v >= 3
	case "developer/message", "agent/harness":
		return v >= 4
	}
	return false
}

// isSubStart and isSubSettle name Code Mode's sub-call events: code-dispatch
// up to format 2, ptc-dispatch from format 3 on.
func isSubStart(typ string) bool {
	return typ == "tool/code-dispatch-start" || typ == "tool/ptc-dispatch-start"
}

func isSubSettle(typ string) bool {
	return typ == "tool/code-dispatch" || typ == "tool/ptc-dispatch"
}
