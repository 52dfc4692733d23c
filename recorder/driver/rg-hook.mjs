// Module hook: @vscode/ripgrep resolves to a module whose rgPath is the
// driver's sorting wrapper (see record.ts).
export async function resolve(specifier, context, next) {
  if (specifier === '@vscode/ripgrep') {
    return { url: new URL('./rg-shim.mjs', import.meta.url).href, shortCircuit: true }
  }
  return next(specifier, context)
}
