// Copied into the packed app and run there: loads each specifier given on the command line from CommonJS, with
// require() (Node >= 22.12 loads ES modules that way) or, given --dynamic-import, with import(), and prints what
// each one exported or how it failed, as JSON.
const dynamicImport = process.argv.includes('--dynamic-import');
const specifiers = process.argv.slice(2).filter((argument) => argument !== '--dynamic-import');

async function main() {
  const results = {};
  for (const specifier of specifiers) {
    try {
      const namespace = dynamicImport ? await import(specifier) : require(specifier);
      results[specifier] = { exports: Object.keys(namespace).sort() };
    } catch (error) {
      results[specifier] = { error: { name: error.name, code: error.code, message: error.message } };
    }
  }
  console.log(JSON.stringify(results));
}

main();
