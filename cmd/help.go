package cmd

import (
	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
)

// Help topics: `dsh-replay help exit-codes`, `dsh-replay help environment`
// (commands with no run function are help topics to cobra).

func newHelpExitCodes(*cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "exit-codes",
		Short: "What each exit code of dsh-replay means",
		Long: `Every command exits with one of these codes (a CI gate can rely on them):

  0    all verified; the command did what it was asked.
  1    a divergence (verify, merge-reports), golden drift or a pending change
       (golden check, golden review without a terminal), or calls that could
       not be re-recorded (golden update).
  2    a usage error: an unknown flag or command, a bad flag value, an unknown
       --call id (show lists the nearest ids), a report file that is one of
       the inputs.
  3    could not verify: an unreadable or corrupt log, a zstd window over
       512 MiB, a log named on the command line that is not a session log, a
       --plugin that does not load, a file that could not be written, blobs
       that cannot be merged, an internal error (reported as a bug).
  130  interrupted by SIGINT (143: SIGTERM); a file being written is left as
       it was, its temporary file removed.

Findings that are notices (no projector for a tool, a torn tail, unknown
events) do not change the code unless --strict makes them failures.`,
	}
}

func newHelpEnvironment(*cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "environment",
		Short: "Environment variables dsh-replay reads",
		Long: `Read by the commands:

  CI                      set: golden commands write nothing unless --force
  DSH_REPLAY_UPDATE       no|new|always: how golden update writes when no flag
                          says (as --dry-run, --review, --no-review)
  DSH_REPLAY_CACHE_DIR    where bundled --plugin code is cached (default
                          the user cache directory's dsh-replay/bundles;
                          "off": no cache)
  DSH_REPLAY_CACHE_MAX    the bundle cache's bound in MiB (default 512; the
                          least recently used bundles go first)
  DSH_REPLAY_PLUGIN_MEMORY
                          how far, in MiB, one plugin projector call may grow
                          the heap (default 256): projector-resource past it
  GITHUB_STEP_SUMMARY     the job summary verify --format github appends to
  NO_COLOR                set and non-empty: no colour with --color auto
  TERM                    dumb: no colour with --color auto
  COLUMNS                 the width when stdout is not a terminal
  PAGER                   the pager of show on a terminal (default "less -R")
  GOGC, GOMEMLIMIT        as for any Go program; when unset dsh-replay picks
                          its own collector settings

Read by the tests, scripts and the GitHub Action (not by the binary):

  DSH_REPLAY_UPSTREAM, DSH_REPLAY_UPSTREAM_LASMEX
                          prepared upstream DSH and LasmeX trees: the tests
                          and scripts that need them skip without them
  DSH_REPLAY_SHARED       the shared fixtures directory (default ../shared)
  DSH_REPLAY_TEST_WATCHDOG
                          how long one CLI run may take in a test
  DSH_REPLAY_REQUIRE_BROWSER, DSH_REPLAY_BROWSER, DSH_REPLAY_BROWSER_SCALE,
  DSH_REPLAY_BROWSER_SCALE_MB
                          the HTML report's headless-browser tests
  DSH_REPLAY_REPO, DSH_REPLAY_DOWNLOAD_URL, DSH_REPLAY_API_URL
                          where the GitHub Action downloads releases from
  DSH_REPLAY_BENCH_LOG    a log for the benchmarks
  DSH_REPLAY_RG_WRAPPER   the recorder driver's ripgrep shim

Test hooks (never set them yourself): DSH_REPLAY_TEST_CRASH_BEFORE_RENAME,
DSH_REPLAY_TEST_PAUSE_WRITE, DSH_REPLAY_TEST_LOW_NOFILE, DSH_REPLAY_AS_CLI, DSH_REPLAY_GOLDEN_AS_CLI and
the *_PROBE variables re-executed test binaries read.`,
	}
}
