package fs

import (
	"strings"
	"sync"
)

// CodeLanguageRelease is the first release whose read takes its lang hint
// from the shared code-language table (@deepseek-ai/dsh-util-code-language,
// whose package declares 0.1.7-alpha.2; read-render.ts re-exports its
// readLangHintForPath as langFromPath).
const CodeLanguageRelease = "0.1.7-alpha.2"

// languageExtensions is LANGUAGE_EXTENSIONS: canonical language → extensions.
func languageExtensions() [][]string {
	return [][]string{
		{"typescript", "ts", "tsx", "mts", "cts"},
		{"javascript", "js", "jsx", "mjs", "cjs"},
		{"shellscript", "sh", "bash", "zsh"},
		{"fish", "fish"},
		{"json", "json", "jsonc", "jsonl", "ndjson", "ipynb"},
		{"python", "py", "pyw", "pyi"},
		{"ruby", "rb", "rake", "gemspec"},
		{"go", "go"},
		{"rust", "rs"},
		{"java", "java"},
		{"c", "c", "h"},
		{"cpp", "cc", "cpp", "cxx", "hh", "hpp", "hxx"},
		{"csharp", "cs"},
		{"kotlin", "kt", "kts"},
		{"swift", "swift"},
		{"php", "php"},
		{"yaml", "yaml", "yml"},
		{"toml", "toml"},
		{"ini", "ini", "conf", "cfg", "properties"},
		{"dotenv", "env"},
		{"log", "log"},
		{"diff", "diff", "patch"},
		{"http", "http"},
		{"markdown", "md", "markdown"},
		{"mdx", "mdx"},
		{"rst", "rst"},
		{"latex", "tex", "sty", "cls"},
		{"bibtex", "bib"},
		{"asciidoc", "adoc"},
		{"html", "html", "htm", "xhtml"},
		{"css", "css"},
		{"scss", "scss"},
		{"less", "less"},
		{"sql", "sql"},
		{"xml", "xml", "xsd", "xsl", "xslt", "plist", "svg"},
		{"lua", "lua"},
		{"bat", "bat", "cmd"},
		{"powershell", "ps1", "psm1", "psd1"},
		{"r", "r"},
		{"julia", "jl"},
		{"dart", "dart"},
		{"scala", "scala"},
		{"clojure", "clj", "cljs", "edn"},
		{"erlang", "erl", "hrl"},
		{"elixir", "ex", "exs"},
		{"haskell", "hs"},
		{"fsharp", "fs", "fsi", "fsx"},
		{"vb", "vb"},
		{"perl", "pl", "pm"},
		{"verilog", "v"},
		{"system-verilog", "sv", "svh"},
		{"graphql", "graphql", "gql"},
		{"proto", "proto"},
		{"hcl", "tf", "tfvars", "hcl"},
		{"nix", "nix"},
		{"vue", "vue"},
		{"svelte", "svelte"},
		{"make", "makefile", "mk"},
		{"cmake", "cmake"},
		{"groovy", "gradle"},
	}
}

// shortByLanguage is SHORT_BY_LANGUAGE: the short id read persists for a
// language the older read table did not know.
func shortByLanguage() map[string]string {
	return map[string]string{
		"typescript": "ts", "javascript": "js", "shellscript": "sh", "fish": "fish", "json": "json",
		"python": "py", "ruby": "rb", "go": "go", "rust": "rs", "java": "java", "c": "c", "cpp": "cpp",
		"csharp": "cs", "kotlin": "kotlin", "swift": "swift", "php": "php", "yaml": "yaml", "toml": "toml",
		"ini": "ini", "dotenv": "env", "log": "log", "diff": "diff", "http": "http", "markdown": "md",
		"mdx": "mdx", "rst": "rst", "latex": "tex", "bibtex": "bib", "asciidoc": "adoc", "html": "html",
		"css": "css", "scss": "scss", "less": "less", "sql": "sql", "xml": "xml", "lua": "lua", "bat": "bat",
		"powershell": "ps1", "r": "r", "julia": "jl", "dart": "dart", "scala": "scala", "clojure": "clj",
		"erlang": "erl", "elixir": "ex", "haskell": "hs", "fsharp": "fs", "vb": "vb", "perl": "pl",
		"verilog": "v", "system-verilog": "sv", "graphql": "graphql", "proto": "proto", "hcl": "tf",
		"nix": "nix", "vue": "vue", "svelte": "svelte", "make": "make", "cmake": "cmake", "groovy": "gradle",
	}
}

// languageByExtension is LANGUAGES (a later language would win a shared
// extension, as the Map built from the entries does; none is shared).
// It maps each extension to its language's short id: the tables are built
// on first use (package initialisation stays free of allocations).
var languageByExtension = sync.OnceValue(func() map[string]string {
	short := shortByLanguage()
	m := map[string]string{}
	for _, l := range languageExtensions() {
		for _, ext := range l[1:] {
			m[ext] = short[l[0]]
		}
	}
	return m
})

// ReadLangHint is readLangHintForPath: the extension is the text after the
// last dot of the last segment (a leading dot included: ".env" is "env"),
// lower-cased; a suffix the older read table knew keeps its hint, any other
// the shared table knows gets its language's short id.
func ReadLangHint(path string) (string, bool) {
	return langHint(path, languageByExtension(), langByExtension())
}

// langHint is readLangHintForPath over a table: byExt maps an extension to
// its language's short id, own the extensions that keep a hint of their own.
func langHint(path string, byExt, own map[string]string) (string, bool) {
	base := path[max(strings.LastIndexByte(path, '/'), strings.LastIndexByte(path, '\\'))+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot < 0 {
		return "", false
	}
	ext, ok := lowerExtension(base[dot+1:])
	if !ok {
		return "", false
	}
	short, ok := byExt[ext]
	if !ok {
		return "", false
	}
	if lang, ok := own[ext]; ok {
		return lang, true
	}
	return short, true
}

// CodeLanguageRC2Release is the first release whose shared table knows csv
// and groovy and persists a suffix's own hint only for tsx, jsx, tf, tfvars
// and gradle (packages/util/code-language/src/index.ts of 0.1.7-rc.2 trees;
// the 0.1.7-alpha.2 one kept the whole older read table): ".hcl" is "hcl"
// and ".tfvars" "tfvars" where they were "tf".
const CodeLanguageRC2Release = "0.1.7-rc.2"

// languageByExtensionRC2 maps each extension of CodeLanguageRC2Release's
// LANGUAGE_EXTENSIONS to its language's short id (SHORT_BY_LANGUAGE).
var languageByExtensionRC2 = sync.OnceValue(func() map[string]string {
	short := shortByLanguage()
	short["csv"], short["hcl"], short["groovy"] = "csv", "hcl", "groovy"
	m := map[string]string{"csv": "csv", "groovy": "groovy"}
	for _, l := range languageExtensions() {
		for _, ext := range l[1:] {
			m[ext] = short[l[0]]
		}
	}
	return m
})

// readLangRC2 is CodeLanguageRC2Release's READ_LANG_BY_EXTENSION.
var readLangRC2 = map[string]string{"tsx": "tsx", "jsx": "jsx", "tf": "tf", "tfvars": "tfvars", "gradle": "gradle"}

// ReadLangHintRC2 is readLangHintForPath from CodeLanguageRC2Release.
func ReadLangHintRC2(path string) (string, bool) {
	return langHint(path, languageByExtensionRC2(), readLangRC2)
}
