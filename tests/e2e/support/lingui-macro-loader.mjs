/* global URL */
// Node module hook for the e2e suites: `@lingui/*/macro` imports resolve to lingui-macro-runtime.mjs, so console
// modules that hold only data (the manifest) can be read in Node without Lingui's compile step.
const RUNTIME = new URL('./lingui-macro-runtime.mjs', import.meta.url).href

export async function resolve(specifier, context, next) {
  if (/^@lingui\/(core|react)\/macro$/.test(specifier)) return { url: RUNTIME, shortCircuit: true }
  return next(specifier, context)
}
