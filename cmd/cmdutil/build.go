package cmdutil

// The project builds two binaries from this module. dsh-replay (the slim
// build, -tags slim) is what every command starts: it leaves out what most
// runs never touch and whose package initialisation every run would pay
// for (the plugin engine with goja and esbuild, the interactive reviewer
// with bubbletea, kaptinlin/jsonschema with net/http). dsh-replay-full,
// installed beside it, is the whole program: a slim run that needs one of
// those hands itself over to it (NeedFull) before it has read or written
// anything, so the output is the full build's own.

// FullName is the file name of the full build, looked for beside the
// running binary.
const FullName = "dsh-replay-full"

// handedOverEnv marks a process the slim build handed over to, so a full
// binary that is slim by mistake fails instead of handing over forever.
const handedOverEnv = "DSH_REPLAY_HANDED_OVER"
