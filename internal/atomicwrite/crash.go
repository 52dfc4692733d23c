package atomicwrite

import (
	"os"
	"time"
)

// crash ends the process the way a crash would: killed, with no deferred
// call or signal handler run (the crash hook's "power cut").
func crash() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Kill()
	}
	for {
		time.Sleep(time.Hour) // until the kill lands
	}
}
