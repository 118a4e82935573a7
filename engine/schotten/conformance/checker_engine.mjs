// The in-page checker as a conformance engine: Pyodide in Node runs the engine's Python files
// and answers the protocol's claims with schotten.checker.check (through checker_glue.py).
//
//   node engine/schotten/conformance/checker_engine.mjs [--pyodide DIR]
//
// DIR is the npm pyodide package (default: node_modules/pyodide, looked for from the current
// folder upwards). One JSON request a line on stdin, one answer a line on stdout.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TARGET = "/schotten-engine/schotten";

function pyodideDir() {
  const flag = process.argv.indexOf("--pyodide");
  if (flag !== -1 && process.argv[flag + 1]) {
    return resolve(process.argv[flag + 1]);
  }
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

function copyEngine(py) {
  // The engine core (what the site ships to the checker) and the conformance glue.
  const files = [
    ...readdirSync(PACKAGE).filter((name) => name.endsWith(".py")),
    ...["__init__.py", "wire.py", "checker_glue.py"].map((name) => `conformance/${name}`),
  ];
  py.FS.mkdirTree(`${TARGET}/conformance`);
  for (const name of files) {
    py.FS.writeFile(`${TARGET}/${name}`, readFileSync(join(PACKAGE, name)));
  }
}

async function main() {
  const dir = pyodideDir();
  const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
  const py = await loadPyodide({ indexURL: `${dir}/`, stdout: () => {}, stderr: (t) => console.error(t) });
  copyEngine(py);
  py.runPython(`import sys\nsys.path.insert(0, "${dirname(TARGET)}")`);
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
