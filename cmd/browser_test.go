package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/dsh-replay/dsh-replay/internal/benchgen"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
	"github.com/dsh-replay/dsh-replay/report"
)

// The HTML report in a real headless Chromium. These tests skip when no
// browser is found (Debian: apt-get install chromium); make test-browser
// runs them and fails instead of skipping (DSH_REPLAY_REQUIRE_BROWSER=1).

func browserPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("DSH_REPLAY_BROWSER"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("DSH_REPLAY_REQUIRE_BROWSER") == "1" {
		t.Fatal("no Chromium found (apt-get install chromium, or set DSH_REPLAY_BROWSER)")
	}
	t.Skip("no Chromium found (apt-get install chromium, or set DSH_REPLAY_BROWSER)")
	return ""
}

// page is a loaded report with what the browser said while loading it.
type page struct {
	ctx      context.Context
	mu       sync.Mutex
	errors   []string
	requests []string
}

func openPage(t *testing.T, file, hash string) *page {
	t.Helper()
	exe := browserPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	p := &page{ctx: ctx}
	if err := chromedp.Listen(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == "error" || ev.Type == "warning" || ev.Type == "assert" {
				p.errors = append(p.errors, fmt.Sprintf("console.%s %d args", ev.Type, len(ev.Args)))
			}
		case *runtime.EventExceptionThrown:
			p.errors = append(p.errors, fmt.Sprintf("exception: %+v", ev.ExceptionDetails))
		case *cdplog.EventEntryAdded:
			if ev.Entry != nil && (ev.Entry.Level == "error" || ev.Entry.Level == "warning") {
				p.errors = append(p.errors, "log: "+ev.Entry.Text)
			}
		case *network.EventRequestWillBeSent:
			if u := ev.Request.URL; !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "about:") {
				p.requests = append(p.requests, u)
			}
		}
	}); err != nil {
		t.Fatalf("starting the browser: %v", err)
	}
	abs, _ := filepath.Abs(file)
	u := (&url.URL{Scheme: "file", Path: abs}).String() + hash
	if err := chromedp.Do(ctx, chromedp.Navigate(u), chromedp.WaitReady(chromedp.ID("n-shown"))); err != nil {
		t.Fatalf("loading %s: %v", u, err)
	}
	return p
}

func evalJS[T any](t *testing.T, p *page, js string) T {
	t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func (p *page) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func (p *page) clean(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.errors) > 0 {
		t.Errorf("console errors: %v", p.errors)
	}
	if len(p.requests) > 0 {
		t.Errorf("network requests: %v", p.requests)
	}
}

// shown is what the page shows now: the number it prints and the visible
// calls.
func (p *page) shown(t *testing.T) (int, []map[string]string) {
	t.Helper()
	var n int
	fmt.Sscan(evalJS[string](t, p, `document.getElementById("n-shown").textContent`), &n)
	vis := evalJS[[]map[string]string](t, p, `Array.from(document.querySelectorAll("article.call")).filter(c => !c.hidden && !c.parentNode.hidden).map(c => ({id: c.id, classes: c.dataset.classes, bad: String(c.classList.contains("bad")), text: c.textContent}))`)
	return n, vis
}

func (p *page) selectValue(t *testing.T, id, value string) {
	t.Helper()
	evalJS[bool](t, p, `(() => { const e = document.getElementById(`+jsString(id)+`); e.value = `+jsString(value)+`; e.dispatchEvent(new Event("change")); return true })()`)
}

func TestBrowserVerifyReport(t *testing.T) {
	t.Parallel()
	browserPath(t)
	dir := t.TempDir()
	html, ndjson := filepath.Join(dir, "report.html"), filepath.Join(dir, "report.ndjson")
	verifyCLI(t, "", "--deterministic", "--report", "html="+html, "--report", "json="+ndjson, verifyData)
	r := parseNDJSON(t, readFile(t, ndjson))
	p := openPage(t, html, "")

	// The counts shown are the NDJSON report's.
	for id, key := range map[string]string{"n-calls": "calls", "n-verified": "verified", "n-diverged": "diverged",
		"n-unverified": "unverified", "n-logs": "logs", "n-with-values": "checkedWithValues"} {
		got := evalJS[string](t, p, `document.getElementById("`+id+`").textContent`)
		if got != fmt.Sprint(r.summary[key]) {
			t.Errorf("#%s shows %s, NDJSON says %v", id, got, r.summary[key])
		}
	}
	classCounts := evalJS[map[string]string](t, p, `Object.fromEntries(Array.from(document.querySelectorAll("[data-class-count]")).map(e => [e.dataset.classCount, e.textContent]))`)
	for class, n := range r.summary["findings"].(map[string]any) {
		if classCounts[class] != fmt.Sprint(n) {
			t.Errorf("class %s: page %q, NDJSON %v", class, classCounts[class], n)
		}
	}
	findings := evalJS[int](t, p, `document.querySelectorAll(".finding").length`)
	if findings != len(r.findings) {
		t.Errorf("%d findings on the page, %d in the NDJSON report", findings, len(r.findings))
	}
	// Every finding names its class, place and command.
	text := evalJS[string](t, p, `document.body.textContent`)
	for _, f := range r.findings {
		if cmd, _ := f["command"].(string); cmd != "" && !strings.Contains(text, cmd) {
			t.Errorf("the page lacks the command %q", cmd)
		}
	}

	// Only divergences by default: every visible call diverged.
	n, vis := p.shown(t)
	if n == 0 || n != len(vis) {
		t.Fatalf("shown %d, visible %d", n, len(vis))
	}
	for _, c := range vis {
		if c["bad"] != "true" {
			t.Errorf("only divergences shows %s", c["id"])
		}
	}
	// All calls.
	p.do(t, chromedp.Click(chromedp.ID("f-bad")))
	if n, vis := p.shown(t); n != int(r.summary["calls"].(float64)) || len(vis) != n {
		t.Errorf("without the filter: shown %d, visible %d, calls %v", n, len(vis), r.summary["calls"])
	}
	// By class: exactly the calls with such a finding.
	want := map[string]bool{}
	for _, f := range r.findings {
		if f["class"] == "meta-mismatch" {
			want[fmt.Sprint(f["log"], f["line"], f["callId"])] = true
		}
	}
	p.selectValue(t, "f-class", "meta-mismatch")
	n, vis = p.shown(t)
	if n != len(want) || n == 0 {
		t.Errorf("class filter: %d shown, want %d", n, len(want))
	}
	for _, c := range vis {
		if !strings.Contains(" "+c["classes"]+" ", " meta-mismatch ") {
			t.Errorf("class filter shows %s (%s)", c["id"], c["classes"])
		}
	}
	// Search.
	p.selectValue(t, "f-class", "")
	p.do(t, chromedp.SendKeys(chromedp.ID("f-q"), "call_bash"), chromedp.Sleep(400*time.Millisecond))
	n, vis = p.shown(t)
	if n == 0 || n >= int(r.summary["calls"].(float64)) {
		t.Errorf("search shows %d", n)
	}
	for _, c := range vis {
		if !strings.Contains(strings.ToLower(c["text"]), "call_bash") {
			t.Errorf("search shows %s", c["id"])
		}
	}
	p.clean(t)
}

func TestBrowserDeepLink(t *testing.T) {
	t.Parallel()
	browserPath(t)
	html := filepath.Join(t.TempDir(), "report.html")
	verifyCLI(t, "", "--deterministic", "--report", "html="+html, verifyData)
	// A verified call far down the page, hidden by "only divergences".
	var target string
	for _, line := range strings.Split(readFile(t, html), "\n") {
		if strings.HasPrefix(line, `<article class="call st-verified"`) {
			if i := strings.Index(line, `id="`); i > 0 {
				target = line[i+4 : i+4+strings.Index(line[i+4:], `"`)]
			}
		}
	}
	if target == "" {
		t.Fatal("no verified call in the report")
	}
	p := openPage(t, html, "#"+target)
	type where struct {
		Hidden bool
		Top    float64
		Head   float64
		Height float64
	}
	res := evalJS[where](t, p, `(() => { const e = document.getElementById(`+jsString(target)+`); const r = e.getBoundingClientRect(); return {Hidden: e.hidden || e.parentNode.hidden, Top: r.top, Head: document.getElementById("top").getBoundingClientRect().bottom, Height: window.innerHeight}; })()`)
	// Visible, below the sticky header, on the screen.
	if res.Hidden || res.Top < res.Head-1 || res.Top > res.Height {
		t.Errorf("deep link to %s: hidden %v, top %v (header ends at %v) of %v", target, res.Hidden, res.Top, res.Head, res.Height)
	}
	p.clean(t)
}

func TestBrowserShowHTML(t *testing.T) {
	browserPath(t)
	html := filepath.Join(t.TempDir(), "cards.html")
	if out, errs, code := goldenCLI(t, "show", "--html", html, "../testdata/show"); code != ExitOK {
		t.Fatalf("show --html: exit %d %s%s", code, out, errs)
	}
	p := openPage(t, html, "")
	kinds := evalJS[map[string]int](t, p, `(() => { const m = {}; document.querySelectorAll(".ln").forEach(l => { const k = l.className.replace("ln", "").trim() || "plain"; m[k] = (m[k]||0)+1 }); return m })()`)
	// Diff hunks, read windows, search matches, terminal failures are all drawn.
	for _, k := range []string{"add", "del", "path", "out", "fail"} {
		if kinds[k] == 0 {
			t.Errorf("no %q lines in the cards: %v", k, kinds)
		}
	}
	n := evalJS[int](t, p, `document.querySelectorAll("article.call").length`)
	if n < 20 {
		t.Errorf("%d cards", n)
	}
	p.clean(t)
}

// TestBrowserLargeReport measures the report over 10,000 calls: its size
// and how long Chromium takes to load it (logged, not asserted: no
// wall-clock thresholds in tests). DSH_REPLAY_BROWSER_SCALE=1 runs it.
func TestBrowserLargeReport(t *testing.T) {
	t.Parallel()
	if os.Getenv("DSH_REPLAY_BROWSER_SCALE") != "1" {
		t.Skip("set DSH_REPLAY_BROWSER_SCALE=1 (make test-browser does)")
	}
	browserPath(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	mb := int64(140) // about 10,000 calls; DSH_REPLAY_BROWSER_SCALE_MB=1024 makes 73,000
	if v, err := strconv.ParseInt(os.Getenv("DSH_REPLAY_BROWSER_SCALE_MB"), 10, 64); err == nil && v > 0 {
		mb = v
	}
	st, err := benchgen.Generate(f, benchgen.Options{Bytes: mb << 20, Seed: 1, Templates: 300, Registry: reg})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	html := filepath.Join(dir, "big.html")
	start := time.Now()
	verifyCLI(t, "", "--report", "html="+html, log)
	gen := time.Since(start)
	info, _ := os.Stat(html)
	start = time.Now()
	p := openPage(t, html, "")
	n := evalJS[int](t, p, `document.querySelectorAll("article.call").length`)
	load := time.Since(start)
	nav := evalJS[float64](t, p, `performance.getEntriesByType("navigation")[0].loadEventEnd`)
	t.Logf("%d calls (%d cards): report %.1f MB written in %v; Chromium start+load %v (loadEventEnd %.0f ms)", st.Calls, n, float64(info.Size())/1e6, gen.Round(time.Millisecond), load.Round(time.Millisecond), nav)
	p.clean(t)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBrowserLazyChunks: calls without findings past HTMLEagerCards wait in
// templates; counts, filters, search and deep links see them all the same.
func TestBrowserLazyChunks(t *testing.T) {
	t.Parallel()
	browserPath(t)
	eager, chunk := report.HTMLEagerCards, report.HTMLChunkCards
	report.HTMLEagerCards, report.HTMLChunkCards = 1, 3
	defer func() { report.HTMLEagerCards, report.HTMLChunkCards = eager, chunk }()
	dir := t.TempDir()
	html, ndjson := filepath.Join(dir, "report.html"), filepath.Join(dir, "report.ndjson")
	verifyCLI(t, "", "--deterministic", "--report", "html="+html, "--report", "json="+ndjson, verifyData)
	r := parseNDJSON(t, readFile(t, ndjson))
	page := readFile(t, html)
	// A call that is only inside a template.
	var lazyID string
	if i := strings.Index(page, `<div class="lazy"`); i < 0 {
		t.Fatal("no lazy chunk in the report")
	} else if j := strings.Index(page[i:], `id="call-`); j > 0 {
		rest := page[i+j+4:]
		lazyID = rest[:strings.Index(rest, `"`)]
	}
	p := openPage(t, html, "")
	total := int(r.summary["calls"].(float64))
	if n := evalJS[int](t, p, `document.querySelectorAll("div.lazy").length`); n == 0 {
		t.Fatal("no chunk left as a template after loading")
	}
	n, vis := p.shown(t)
	for _, c := range vis {
		if c["bad"] != "true" {
			t.Errorf("only divergences shows %s", c["id"])
		}
	}
	if n != len(vis) {
		t.Errorf("only divergences: %d shown, %d visible", n, len(vis))
	}
	p.do(t, chromedp.Click(chromedp.ID("f-bad")))
	if n, _ := p.shown(t); n != total {
		t.Errorf("all calls: %d shown, %d in the run", n, total)
	}
	// A tool filter turns the chunks that hold the tool into cards.
	var wantRead int
	for _, x := range r.summary["tools"].([]any) {
		if m := x.(map[string]any); m["tool"] == "read" {
			wantRead = int(m["verified"].(float64) + m["diverged"].(float64) + m["unverified"].(float64))
		}
	}
	p.selectValue(t, "f-tool", "read")
	n, vis = p.shown(t)
	if n != wantRead || len(vis) != n {
		t.Errorf("tool read: %d shown, %d visible, want %d", n, len(vis), wantRead)
	}
	p.selectValue(t, "f-tool", "")
	p.do(t, chromedp.SendKeys(chromedp.ID("f-q"), "call_bash"), chromedp.Sleep(400*time.Millisecond))
	n, vis = p.shown(t)
	if n == 0 || n != len(vis) {
		t.Errorf("search: %d shown, %d visible", n, len(vis))
	}
	for _, c := range vis {
		if !strings.Contains(strings.ToLower(c["text"]), "call_bash") {
			t.Errorf("search shows %s", c["id"])
		}
	}
	p.clean(t)

	// A deep link into a chunk that is still a template.
	q := openPage(t, html, "#"+lazyID)
	type where struct {
		Found, Hidden     bool
		Top, Head, Height float64
	}
	res := evalJS[where](t, q, `(() => { const e = document.getElementById(`+jsString(lazyID)+`); if (!e) return {Found: false}; const r = e.getBoundingClientRect(); return {Found: true, Hidden: e.hidden || e.parentNode.hidden, Top: r.top, Head: document.getElementById("top").getBoundingClientRect().bottom, Height: window.innerHeight}; })()`)
	if !res.Found || res.Hidden || res.Top < res.Head-1 || res.Top > res.Height {
		t.Errorf("deep link to %s in a chunk: %+v", lazyID, res)
	}
	q.clean(t)
}
