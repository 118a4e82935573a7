// The claim checker's engine, in a module Web Worker: Pyodide starts and answers here, so the
// page never waits on it. Messages to the page:
//   {type: "progress", step}   step: "runtime" (downloading and compiling the interpreter),
//                              "stdlib" (the standard library, Python starting), "engine"
//   {type: "ready"}            the engine answers from now on
//   {type: "failed", message}  the engine could not start
//   {type: "answer", id, result} | {type: "answer", id, failure}
// Messages from the page: {type: "check", id, position} (the claim checker), and
// {type: "play", id, request} (the « Jouer » page: schotten.table_game, one game per worker,
// imported on the first request; the answer's result is the JSON the session answered).

const HERE = new URL(".", import.meta.url);
const RUNTIME = new URL("pyodide/", HERE);
const ENGINE_ZIP = "/schotten-engine.zip";
// "?kept=<version>": the service worker keeps this build's files, in the cache of that version
// (checker.js says so once it is active). The interpreter's memory once the engine is imported
// is then kept there too: a later start resumes from it instead of starting Python and
// importing the engine again. It is made in this browser, never downloaded, and the service
// worker deletes it with the files of its build. (Written here, not through the service
// worker: handing it 30 MB held up the first answers for seconds.)
const KEPT = new URL(import.meta.url).searchParams.get("kept");
const SNAPSHOT = new URL("pyodide/snapshot", HERE).href;

function say(message) {
  postMessage(message);
}

async function start() {
  say({ type: "progress", step: "runtime" });
  // The engine archive downloads while the interpreter does.
  const engineZip = fetch(new URL("schotten-engine.zip", HERE)).then((response) => {
    if (!response.ok) throw new Error(`schotten-engine.zip: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  engineZip.catch(() => {}); // reported when awaited below
  const snapshotRead = KEPT ? keptSnapshot() : Promise.resolve(null); // meanwhile too
  const { loadPyodide } = await import(new URL("pyodide.mjs", RUNTIME).href);
  const options = {
    indexURL: RUNTIME.href,
    // Written at build time: only the modules the engine and Pyodide's start-up import.
    stdLibURL: new URL("python_stdlib.zip", RUNTIME).href,
    lockFileURL: new URL("pyodide-lock.json", RUNTIME).href,
    // Called once the interpreter is compiled, before Python starts on the standard library.
    fsInit: async () => say({ type: "progress", step: "stdlib" }),
  };
  const snapshot = await snapshotRead;
  let py = null;
  if (snapshot) {
    try {
      py = await loadPyodide({ ...options, _loadSnapshot: snapshot });
    } catch (error) {
      console.warn("the kept start could not be resumed; starting afresh", error);
    }
  }
  const fresh = py === null;
  if (fresh) py = await loadPyodide({ ...options, _makeSnapshot: KEPT !== null });
  say({ type: "progress", step: "engine" });
  // Imported from the archive itself (zipimport), as the standard library is. A resumed start
  // has it imported already, but reads it again for what it imports later.
  py.FS.writeFile(ENGINE_ZIP, new Uint8Array(await engineZip));
  if (fresh) {
    // Raises if the engine needs a module the trimmed standard library lacks: an honest error
    // state rather than a package fetched from elsewhere.
    py.runPython(`import sys\nsys.path.insert(0, "${ENGINE_ZIP}")\nimport schotten.checker`);
    if (KEPT) keepSnapshot(py);
  }
  const checker = py.pyimport("schotten.checker");
  let session = null;
  return {
    check: (position) => JSON.parse(checker.check(JSON.stringify(position))),
    play: (request) => {
      if (session === null) session = py.pyimport("schotten.table_game").Session();
      return JSON.parse(session.handle(JSON.stringify(request)));
    },
  };
}

function snapshots() {
  return caches.open(`schotten-checker-${KEPT}`); // the service worker's cache of this build
}

async function keptSnapshot() {
  try {
    const found = await (await snapshots()).match(SNAPSHOT);
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch (error) {
    return null;
  }
}

function keepSnapshot(py) {
  try {
    // Taken before any Python object is handed to this script, as Pyodide requires.
    const memory = py.makeMemorySnapshot();
    snapshots()
      .then((cache) => cache.put(SNAPSHOT, new Response(memory)))
      .catch((error) => console.warn(error));
  } catch (error) {
    console.warn("the engine's start could not be kept", error);
  }
}

const engine = start();
engine.then(
  () => say({ type: "ready" }),
  (error) => say({ type: "failed", message: String(error && error.message ? error.message : error) }),
);

onmessage = async (event) => {
  const { type, id, position, request } = event.data;
  if (type !== "check" && type !== "play") return;
  try {
    const calls = await engine;
    const result = type === "check" ? calls.check(position) : calls.play(request);
    say({ type: "answer", id, result });
  } catch (error) {
    say({ type: "answer", id, failure: String(error && error.message ? error.message : error) });
  }
};
