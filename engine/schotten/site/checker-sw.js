// The claim checker's service worker: it keeps the checker's files in the browser, so that the
// checker opens again without downloading them, online or not. schotten.site.runtime writes this
// file at the site's root with, above this comment, the build's manifest:
//
//   const CHECKER = {version, files: {path: {sha256, type, packed?}}};
//
// version: the digest of the checker's files in this build. A build with other files writes
// another version, so the browser installs this worker afresh, which deletes the caches of the
// versions before (never a stale engine).
// files: what the engine's worker (assets/checker/worker.js) loads, relative to the site's root;
// each is taken from the cache first, else downloaded once and kept. "packed": a gzip copy of
// the file that the host serves as it is (many hosts compress less well on the fly, some not at
// all), unpacked here; "sha256": what the file must hold, checked before it is kept.
// The engine's worker keeps in the same cache the interpreter's memory once the engine is
// started (worker.js): it goes with the files of its build.
// Any other address of the site is asked of the network first; what it answers is kept, and
// given back when the network does not answer (the pages a reader saw open offline).

const PREFIX = "schotten-checker-";
const CACHE = PREFIX + CHECKER.version;
const ROOT = new URL("./", self.location.href);
const FILES = new Map(
  Object.entries(CHECKER.files).map(([path, file]) => [new URL(path, ROOT).href, file]),
);

self.addEventListener("install", (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(ROOT.href)) return;
  const url = new URL(request.url);
  const address = url.origin + url.pathname;
  const file = FILES.get(address);
  event.respondWith(file ? kept(address, file) : networkFirst(request, event));
});

// A file of the checker: from the cache, else downloaded, checked and kept.
async function kept(address, file) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(address);
  if (found) return found;
  const body = await download(address, file);
  if (body === null) return fetch(address, { cache: "reload" }); // not this build's: not kept
  const response = new Response(body, { headers: { "Content-Type": file.type } });
  await cache.put(address, response.clone());
  return response;
}

// The file's bytes as this build wrote them, or null when the host gives other bytes.
async function download(address, file) {
  let bytes = null;
  if (file.packed && typeof DecompressionStream === "function") {
    const packed = await fetch(new URL(file.packed, ROOT));
    if (packed.ok) bytes = await unpacked(new Uint8Array(await packed.arrayBuffer()));
  }
  if (bytes === null) {
    const plain = await fetch(address);
    if (!plain.ok) return null;
    bytes = new Uint8Array(await plain.arrayBuffer());
  }
  return (await sha256(bytes)) === file.sha256 ? bytes : null;
}

async function unpacked(bytes) {
  // A host may have unpacked it already (a .gz served with Content-Encoding: gzip).
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// Any other address: the network's answer (kept when it is a file of the site), else the one
// kept last time.
async function networkFirst(request, event) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      const copy = response.clone();
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
    }
    return response;
  } catch (error) {
    const found = await caches.match(request, { cacheName: CACHE });
    if (found) return found;
    throw error;
  }
}
