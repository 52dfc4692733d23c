package cmd

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/replay"
	"github.com/dsh-replay/dsh-replay/report"
)

// shardInputs keeps shard k of n of the logs (replay.PartitionLogs: whole
// logs balanced by size, so a shard reads only its own) and returns them
// with each one's index in the whole list. A log's size counts its values
// sidecar too.
func shardInputs(paths []string, k, n int) (kept []string, index map[string]int) {
	index = make(map[string]int, len(paths))
	for i, p := range paths {
		index[p] = i
	}
	if n <= 1 {
		return paths, index
	}
	size := make([]int64, len(paths))
	for i, p := range paths {
		if p == "-" {
			continue
		}
		if st, err := os.Stat(p); err == nil {
			size[i] = st.Size()
		}
		if st, err := os.Stat(logformat.SidecarPath(p)); err == nil {
			size[i] += st.Size()
		}
	}
	for _, i := range replay.PartitionLogs(paths, size, n)[k-1] {
		kept = append(kept, paths[i])
	}
	return kept, index
}

// inputsHash identifies the whole input list (every shard's).
func inputsHash(paths []string) string {
	h := sha256.New()
	for _, p := range paths {
		io.WriteString(h, p)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// configHash identifies everything of a verify run that changes its
// results: the --config (its content when it names a file), the plugins
// and the tools they add, and the flags that change what is checked.
func (o *verifyOptions) configHash(pluginTools []cmdutil.PluginTool) string {
	cfg := o.proj.Config
	if b, err := os.ReadFile(cfg); cfg != "" && err == nil {
		cfg = string(b)
	}
	var tools []string
	for _, t := range pluginTools {
		tools = append(tools, t.String())
	}
	b, _ := json.Marshal(struct {
		Config      string
		Plugins     []string
		PluginTools []string
		Strict      bool
		Shake       int
		Kaptinlin   bool
		Golden      string
		NoSidecar   bool
	}{cfg, o.proj.Plugins, tools, o.strict, o.shake, o.kaptinlin, o.golden, o.proj.NoSidecar})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:16]
}

// newBlobSink starts the blob of this run (verify --report blob=FILE).
func (o *verifyOptions) newBlobSink(w io.Writer, all []string, index map[string]int, k, n int, pluginTools []cmdutil.PluginTool) report.Sink {
	if n <= 1 {
		k, n = 1, 1
	}
	h := report.BlobHeader{Version: cmdutil.VersionString(), Config: o.configHash(pluginTools), Inputs: inputsHash(all),
		ShardK: k, ShardN: n, Deterministic: o.deterministic, Strict: o.strict, ShowArgs: o.proj.ShowArgs()}
	for _, t := range pluginTools {
		h.PluginTools = append(h.PluginTools, t.String())
	}
	return report.NewBlob(w, h, index)
}
