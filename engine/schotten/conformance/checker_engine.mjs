// The in-page checker as a conformance engine: Pyodide in Node runs the engine's Python files
// and answers the protocol's claims with schotten.checker.check (through checker_glue.py).
//
//   node engine/schotten/conformance/checker_engine.mjs [--pyodide DIR | --runtime DIR]
//
// --pyodide DIR: the npm pyodide package (default: node_modules/pyodide, looked for from the
// current folder upwards), with the engine's source files.
// --runtime DIR: the checker as a built site ships it (<site>/assets/checker): its Pyodide, its
// trimmed standard library and its engine archive, both as bytecode, the bytes a reader
// downloads. Only the glue comes from the source files.
// One JSON request a line on stdin, one answer a line on stdout.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TARGET = "/schotten-engine/schotten";

function pyodideDir() {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "pyodide");
    if (existsSync(join(candidate, "pyodide.mjs"))) {
      return candidate;
    }
    if (dirname(dir) === dir) {
      throw new Error("node_modules/pyodide not found: run `npm ci` (scripts/setup does)");
    }
  }
}

function option(name) {
  const flag = process.argv.indexOf(name);
  return flag !== -1 && process.argv[flag + 1] ? resolve(process.argv[flag + 1]) : null;
}

const GLUE = ["__init__.py", "wire.py", "checker_glue.py"].map((name) => `conformance/${name}`);

function copyFiles(py, names) {
  py.FS.mkdirTree(`${TARGET}/conformance`);
  for (const name of names) {
    py.FS.writeFile(`${TARGET}/${name}`, readFileSync(join(PACKAGE, name)));
  }
}

async function startFromSources() {
  const dir = option("--pyodide") ?? pyodideDir();
  const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
  const py = await loadPyodide({ indexURL: `${dir}/`, stdout: () => {}, stderr: (t) => console.error(t) });
  // The engine core (what the site ships to the checker) and the conformance glue.
  copyFiles(py, [...readdirSync(PACKAGE).filter((name) => name.endsWith(".py")), ...GLUE]);
  py.runPython(`import sys\nsys.path.insert(0, "${dirname(TARGET)}")`);
  return py;
}

async function startFromRuntime(dir) {
  // As worker.js starts it in the browser, then the glue beside the shipped package.
  const runtime = `${join(dir, "pyodide")}/`;
  const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
  const py = await loadPyodide({
    indexURL: runtime,
    stdLibURL: join(runtime, "python_stdlib.zip"),
    lockFileURL: join(runtime, "pyodide-lock.json"),
    stdout: () => {},
    stderr: (t) => console.error(t),
  });
  py.FS.writeFile("/schotten-engine.zip", readFileSync(join(dir, "schotten-engine.zip")));
  copyFiles(py, GLUE);
  py.runPython(
    `import sys\nsys.path.insert(0, "/schotten-engine.zip")\nimport schotten, schotten.checker\n` +
      `assert schotten.checker.__file__.endswith(".pyc"), schotten.checker.__file__\n` +
      `schotten.__path__.append("${TARGET}")`,
  );
  return py;
}

async function main() {
  const runtime = option("--runtime");
  const py = runtime ? await startFromRuntime(runtime) : await startFromSources();
  const glue = py.pyimport("schotten.conformance.checker_glue");
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim()) {
      process.stdout.write(`${glue.answer_line(line)}\n`);
    }
  }
}

main().catch((error) => {
  console.error(`checker engine: ${error.message}`);
  process.exit(1);
});
