// Package jsplugin loads a third-party DSH or LasmeX tool plugin (its built
// ESM file, or its source directory, TypeScript included) and turns the
// tools it defines into projector.Tools whose projectors run the plugin's
// own JavaScript. The plugin is bundled in-process with esbuild, its
// imports resolved from its own package as Node (and the workspace's
// tsconfig paths) would: the harness's own packages where installed,
// defineTool included, else a stand-in; node:* built-ins are stubs that
// throw when used. It is applied in goja the way Cordis applies a plugin
// (its loader's unwrapping, Config validated, the callback constructed or
// called) against a stand-in context whose tools service records what
// ctx.tools.register receives, with ToolRuntime's checks; every other
// service is inert. The sandbox has no clock, randomness, timers, network
// or file system: a projector that reaches for one fails with an
// ImpureError naming the global, and one that runs past the deadline is
// interrupted with a TimeoutError. What Node gives a projector and goja
// lacks is supplied as Node behaves where it is pure (node.js); the rest
// fails with an UnsupportedError, so the call reads as not verified.
package jsplugin
