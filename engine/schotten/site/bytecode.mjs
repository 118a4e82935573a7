// Compile Python archives into bytecode with the site's own Pyodide (bytecode.py does the work:
// a pyc belongs to one Python version, so it is made by the interpreter that will load it).
//
//   node bytecode.mjs PYODIDE_DIR JOBS
//
// PYODIDE_DIR: the npm pyodide package. JOBS: a JSON list of
//   {"source": "in.zip", "target": "out.zip", "prefix": null}
// where "prefix" is the archive's path in the browser (null: the standard library's own path).
// Each target is written whole or not at all; the exit status is 1 on any failure.

import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

async function main() {
  const [dir, jobsText] = process.argv.slice(2);
  if (!dir || !jobsText) throw new Error("usage: node bytecode.mjs PYODIDE_DIR JOBS");
  const jobs = JSON.parse(jobsText);
  const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
  const py = await loadPyodide({ indexURL: `${dir}/`, stdout: () => {}, stderr: (t) => console.error(t) });
  py.FS.mkdirTree("/bytecode");
  py.FS.writeFile("/bytecode/bytecode.py", readFileSync(join(HERE, "bytecode.py")));
  py.runPython('import sys\nsys.path.insert(0, "/bytecode")');
  const stdlib = py.runPython("import os\nos.path.dirname(os.__file__)");
  const bytecode = py.pyimport("bytecode");
  for (const job of jobs) {
    py.FS.writeFile("/bytecode/source.zip", readFileSync(job.source));
    bytecode.compile_file("/bytecode/source.zip", "/bytecode/target.zip", job.prefix ?? stdlib);
    const partial = `${job.target}.${process.pid}.part`;
    writeFileSync(partial, py.FS.readFile("/bytecode/target.zip"));
    renameSync(partial, job.target);
  }
}

main().catch((error) => {
  console.error(`bytecode.mjs: ${error && error.message ? error.message : error}`);
  process.exit(1);
});
