package golden

import (
	"fmt"
	"sort"

	"github.com/dsh-replay/dsh-replay/internal/termquote"

	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
	"github.com/dsh-replay/dsh-replay/internal/filelock"
)

// Golden writes are serialised per log: update, accept and reject hold the
// lock of each log (filelock, beside the log in the source tree) from the
// moment they read it to their last write, so that two runs on one log take
// turns and the second plans from what the first wrote.

// lockLogs takes the locks of logs in one order (sorted: two runs locking
// overlapping sets cannot wait on each other) and returns what releases
// them.
func lockLogs(logs []string) (unlock func(), err error) {
	logs = append([]string(nil), logs...)
	sort.Strings(logs)
	var held []func()
	unlock = func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i]()
		}
	}
	for i, l := range logs {
		if i > 0 && l == logs[i-1] {
			continue
		}
		u, err := lockLog(l)
		if err != nil {
			unlock()
			return nil, err
		}
		held = append(held, u)
	}
	return unlock, nil
}

// lockLog takes the lock of one log; a signal while it is wanted or held
// lets it go with the temporary files (registered before the lock file can
// exist, so no moment leaves it behind).
func lockLog(path string) (unlock func(), err error) {
	l := filelock.New(path)
	forget := atomicwrite.OnAbort(l.Abandon)
	if err := l.Acquire(); err != nil {
		forget()
		return nil, fmt.Errorf("locking %s: %w", termquote.QuoteName(path), err)
	}
	return func() { l.Release(); forget() }, nil
}

// underLocks runs list, locks the logs of the units it found, and lists
// again under the locks (what another run wrote meanwhile is seen); a
// second listing that names a log not locked starts over.
func underLocks(list func() ([]*pendingUnit, error)) (units []*pendingUnit, unlock func(), err error) {
	if units, err = list(); err != nil {
		return nil, nil, err
	}
	for {
		locked := map[string]bool{}
		logs := make([]string, 0, len(units))
		for _, u := range units {
			locked[u.log] = true
			logs = append(logs, u.log)
		}
		if unlock, err = lockLogs(logs); err != nil {
			return nil, nil, err
		}
		if units, err = list(); err != nil {
			unlock()
			return nil, nil, err
		}
		covered := true
		for _, u := range units {
			covered = covered && locked[u.log]
		}
		if covered {
			return units, unlock, nil
		}
		unlock()
	}
}
