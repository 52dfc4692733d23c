# dsh-replay: build, test, bench, fuzz, lint.
GO      ?= go
BIN     ?= bin/dsh-replay
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/dsh-replay/dsh-replay/cmd/cmdutil.Version=$(VERSION)

.PHONY: build install test test-long test-browser bench fuzz lint example pgo record record-check crosscheck release

# Statically linked (no cgo: the pure-Go resolver and user lookup): loading
# libc and running its relocations costs every command a few milliseconds.
#
# One binary, whatever installs it (make, go install, a release archive).
# It is linked to a temporary file, copied and renamed into place: the
# linker writes through a memory map, and a binary started from those
# page-cache pages starts 5-12% slower than a copy of it until they are
# evicted.
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN).link .
	cp $(BIN).link $(BIN).new && mv -f $(BIN).new $(BIN) && rm -f $(BIN).link

install:
	CGO_ENABLED=0 $(GO) install -ldflags "$(LDFLAGS)" .

# The README's test command: vet plus every package's tests, without the
# race detector and with -short (the tests that build release archives
# and binaries skip): a few minutes on two cores.
test:
	$(GO) vet ./...
	$(GO) test -short -count=1 ./...

# What CI runs after make test (.ci/run): the whole suite under the race
# detector, the long tests included (release archives, binary builds).
test-long:
	$(GO) test -race -count=1 ./...

# The HTML report in headless Chromium (apt-get install chromium): fails
# instead of skipping when no browser is found, and measures the report over
# 10,000 calls.
test-browser:
	DSH_REPLAY_REQUIRE_BROWSER=1 DSH_REPLAY_BROWSER_SCALE=1 $(GO) test -count=1 -run Browser -v ./cmd

# Micro benchmarks plus the end-to-end throughput table (scripts/bench.sh).
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	./scripts/bench.sh

# Regenerate default.pgo (the profile go build optimises with) after changes
# to hot paths.
pgo:
	./scripts/pgo.sh

# FUZZTIME per target; every Fuzz* function in the tree is run in turn.
FUZZTIME ?= 30s
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	@# Import groups: std, third-party, this module (when goimports is installed).
	@! command -v goimports >/dev/null || test -z "$$(goimports -local github.com/dsh-replay/dsh-replay -l $$(git ls-files '*.go'))" || (goimports -local github.com/dsh-replay/dsh-replay -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...

# Build and run the tool on the example log shipped in testdata/.
example: build
	$(BIN) show --no-pager --width 100 testdata/example/session.jsonl

# Re-record testdata/recorded: scripted sessions on the pinned DSH and LasmeX
# trees with the recorder plugin loaded. Needs both trees prepared by hand
# (DSH_REPLAY_UPSTREAM, DSH_REPLAY_UPSTREAM_LASMEX; docs/upstream.md) and
# Node >= 22.19 on PATH; CI only verifies the result.
record:
	./scripts/record.sh

# Record into a temporary directory and diff against what is committed.
record-check:
	./scripts/record.sh --check

# Upstream's own plugins in the sandbox against the Go ports and the
# recorded sessions, for DSH and LasmeX, from the prepared trees
# DSH_REPLAY_UPSTREAM and DSH_REPLAY_UPSTREAM_LASMEX name (docs/upstream.md;
# it stops, saying what is missing, without them) and fails unless every plugin
# shipping a ported tool loads, every conformance example agrees and every
# recorded call verifies through them.
crosscheck:
	./scripts/upstream-crosscheck.sh all

# Release archives for linux, darwin and windows on amd64 and arm64 plus
# checksums.txt, reproducibly (scripts/release.sh); the release workflow
# runs it on a tag. PLATFORMS=host builds only this machine's.
RELEASE_DIR ?= dist
release:
	VERSION=$(VERSION) ./scripts/release.sh $(RELEASE_DIR)
