// Copied into the packed app and run there: imports each specifier given on the command line with import(),
// as an ES module consumer would, and prints what each one exported or how it failed, as JSON.
const results = {};
for (const specifier of process.argv.slice(2)) {
  try {
    results[specifier] = { exports: Object.keys(await import(specifier)).sort() };
  } catch (error) {
    results[specifier] = { error: { name: error.name, code: error.code, message: error.message } };
  }
}
console.log(JSON.stringify(results));
