package logformat

import (
	"strconv"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

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

// checkStream checks the stream of a format 2+ assistant/message (its
// data.stream) as v0's packed rows are checked, where a record could not
// be what the model streamed: a packed record (text-chunks,
// reasoning-chunks, tool-call-chunks) must have time0, dt, and a non-empty
// texts/args array of strings one longer than dt, whose times stay safe
// integers; tool-call-chunks an id string; a chunk record a safe-integer
// time and a chunk object. Other record types and extra members are left
// to upstream. It reads r's current value; "" when it is sound.
func checkStream(r *jsonv.ObjectReader) string {
	arr, ok := r.EnterArray()
	if !ok {
		r.Skip()
		return "stream is not an array"
	}
	why := ""
	for i := 0; arr.Next(); i++ {
		rec, ok := arr.EnterObject()
		if !ok {
			arr.Skip()
			if why == "" {
				why = "record " + strconv.Itoa(i) + " is not an object"
			}
			continue
		}
		if w := checkStreamRecord(&rec); w != "" && why == "" {
			why = "record " + strconv.Itoa(i) + ": " + w
		}
		arr.LeaveObject(&rec)
	}
	r.LeaveArray(&arr)
	return why
}

func checkStreamRecord(rec *jsonv.ObjectReader) string {
	var (
		typ                     string
		hasTime, hasTime0       bool
		timeOK, chunkOK, idOK   = true, false, false
		members, dtLen          = -1, -1
		payloadOK, dtOK         = true, true
		time0, minSum, maxSum   int64
		packedSeen, payloadSeen bool
	)
	for rec.Next() {
		switch string(rec.Key()) {
		case "type":
			typ, _ = stringValue(rec)
		case "time":
			hasTime = true
			_, timeOK = safeInt(rec.RawValue())
		case "time0":
			hasTime0 = true
			var ok bool
			time0, ok = safeInt(rec.RawValue())
			timeOK = timeOK && ok
		case "chunk":
			chunkOK = rec.First() == '{'
			rec.Skip()
		case "id":
			idOK = rec.First() == '"'
			rec.Skip()
		case "texts", "args":
			payloadSeen = true
			a, ok := rec.EnterArray()
			if !ok {
				payloadOK = false
				rec.Skip()
				continue
			}
			members = 0
			for a.Next() {
				if a.First() != '"' {
					payloadOK = false
				}
				a.Skip()
				members++
			}
			rec.LeaveArray(&a)
		case "dt":
			packedSeen = true
			a, ok := rec.EnterArray()
			if !ok {
				dtOK = false
				rec.Skip()
				continue
			}
			dtLen = 0
			var sum int64
			for a.Next() {
				n, ok := safeInt(a.RawValue())
				dtOK = dtOK && ok
				sum += n
				if sum > 2*maxSafe || sum < -2*maxSafe {
					dtOK = false
				}
				minSum, maxSum = min(minSum, sum), max(maxSum, sum)
				dtLen++
			}
			rec.LeaveArray(&a)
		default:
			rec.Skip()
		}
	}
	if rec.Err() != nil {
		return "" // the line's syntax error is reported as such
	}
	switch typ {
	case "chunk":
		switch {
		case !hasTime || !timeOK:
			return "chunk record time must be a safe integer"
		case !chunkOK:
			return "chunk record without a chunk object"
		}
	case "text-chunks", "reasoning-chunks", "tool-call-chunks":
		payload := "texts"
		if typ == "tool-call-chunks" {
			payload = "args"
			if !idOK {
				return typ + " record id must be a string"
			}
		}
		switch {
		case !hasTime0 || !timeOK:
			return typ + " record time0 must be a safe integer"
		case !payloadSeen || !payloadOK || members <= 0:
			return typ + " record " + payload + " must be a non-empty string array"
		case !packedSeen || !dtOK:
			return typ + " record dt must be an array of safe integers"
		case dtLen != members-1:
			return typ + " record dt length " + strconv.Itoa(dtLen) + " does not match " + strconv.Itoa(members) + " members"
		case time0+minSum < -maxSafe || time0+maxSum > maxSafe:
			return typ + " record member times must stay safe integers"
		}
	}
	return ""
}

// isSubStart and isSubSettle name Code Mode's sub-call events: code-dispatch
// up to format 2, ptc-dispatch from format 3 on.
func isSubStart(typ string) bool {
	return typ == "tool/code-dispatch-start" || typ == "tool/ptc-dispatch-start"
}

func isSubSettle(typ string) bool {
	return typ == "tool/code-dispatch" || typ == "tool/ptc-dispatch"
}
