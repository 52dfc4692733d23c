package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/replay"
)

// TestBlobRoundTrip: what a blob sink is handed comes back from the
// reader, cards included.
func TestBlobRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	s := NewBlob(&buf, BlobHeader{Version: "v1", Config: "c", Inputs: "i", ShardK: 2, ShardN: 3}, map[string]int{"a.jsonl": 4})
	entry := &cards.Entry{Tool: "read", CallID: "c1", Location: "a.jsonl:3", Args: jsonv.MustParse(`{"path":"x","n":1.50}`),
		RawArgs: `{"path":"x"}`, HasResult: true, Content: jsonv.MustParse(`[{"type":"text","text":"hi"}]`),
		Subs: []*cards.Entry{{Tool: "bash", CallID: "c2"}}}
	s.BeginLog("a.jsonl")
	s.Call(&replay.CallResult{File: "a.jsonl", Line: 3, CallID: "c1", Tool: "read", Status: replay.Diverged, HasValue: true,
		Findings: []replay.Finding{{Class: replay.ContentMismatch, Sev: replay.Failure, File: "a.jsonl", Line: 3, Diff: []string{"- a", "+ b"}}},
		View:     &replay.View{Card: entry}})
	s.EndLog(&replay.LogResult{File: "a.jsonl", Data: []byte("not kept")})
	s.BeginLog("a.jsonl.cards") // a block after the log takes its index
	s.EndLog(&replay.LogResult{File: "a.jsonl.cards", CardGoldens: true})
	if err := s.Close(&Totals{Duration: 5}); err != nil {
		t.Fatal(err)
	}
	r, err := OpenBlob("x.blob", &buf)
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.ShardK != 2 || r.Header.ShardN != 3 || r.Header.Version != "v1" {
		t.Errorf("header %+v", r.Header)
	}
	u, err := r.Next()
	if err != nil || u == nil {
		t.Fatalf("first unit: %v %v", u, err)
	}
	if u.Index != 4 || len(u.Calls) != 1 || u.Log.Data != nil {
		t.Errorf("unit %+v", u)
	}
	c := u.Calls[0]
	if c.Status != replay.Diverged || len(c.Findings) != 1 || c.Findings[0].Diff[1] != "+ b" || cardOf(&c) == nil {
		t.Fatalf("call %+v", c)
	}
	if got := jsonv.Encode(cardOf(&c).Args); got != `{"path":"x","n":1.50}` {
		t.Errorf("card args %s: the number's lexeme is lost", got)
	}
	if len(cardOf(&c).Subs) != 1 || cardOf(&c).Subs[0].CallID != "c2" || cardOf(&c).Card() != entry.Card() {
		t.Errorf("card differs:\n%s\n%s", cardOf(&c).Card(), entry.Card())
	}
	u, err = r.Next()
	if err != nil || u == nil || u.Index != 4 || !u.Log.CardGoldens {
		t.Fatalf("second unit: %+v %v", u, err)
	}
	if u, err = r.Next(); u != nil || err != nil || r.Nanos != 5 {
		t.Errorf("end: %v %v, nanos %d", u, err, r.Nanos)
	}
}

// FuzzBlob: no input makes the reader panic or loop; what it accepts ends.
func FuzzBlob(f *testing.F) {
	var buf bytes.Buffer
	s := NewBlob(&buf, BlobHeader{Version: "v1", ShardK: 1, ShardN: 1}, nil)
	s.BeginLog("a")
	s.Call(&replay.CallResult{File: "a", View: &replay.View{Card: &cards.Entry{Tool: "t", Args: jsonv.MustParse(`[1]`)}}})
	s.EndLog(&replay.LogResult{File: "a"})
	s.Close(&Totals{})
	f.Add(buf.String())
	f.Add(`{"type":"dsh-replay-blob","format":1}` + "\n" + `{"t":"call"}`)
	f.Add(`{"type":"dsh-replay-blob","format":1}` + "\n" + `{"t":"log"}` + "\n" + `{"t":"call","call":{"Entry":{"Args":"[","CallView":"{}"}}}`)
	f.Fuzz(func(t *testing.T, data string) {
		r, err := OpenBlob("f", strings.NewReader(data))
		if err != nil {
			return
		}
		for i := 0; i <= len(data); i++ {
			u, err := r.Next()
			if u == nil || err != nil {
				return
			}
		}
		t.Fatal("more units than bytes")
	})
}
