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
// each is taken from the cache first, else downloaded once, handed on as it arrives and kept.
// "packed": a gzip copy of the file that the host serves as it is (many hosts compress less well
// on the fly, some not at all), unpacked here; "sha256": what the file must hold, checked before
// it is kept.
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
  event.respondWith(file ? kept(address, file, event) : networkFirst(request, event));
});

// A file of the checker: from the cache, else from the network, handed to the page as it
// arrives (the interpreter compiles while it downloads) and kept once the whole file is checked.
async function kept(address, file, event) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(address);
  if (found) return found;
  const body = await download(address, file);
  if (body === null) return fetch(address, { cache: "reload" }); // not this build's: not kept
  const [toPage, toKeep] = body.tee();
  event.waitUntil(keep(cache, address, file, toKeep).catch((error) => console.warn(error)));
  return new Response(toPage, { headers: { "Content-Type": file.type } });
}

// Kept only when the bytes are the ones this build wrote: a host's error page or a file of
// another build is never kept.
async function keep(cache, address, file, stream) {
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  if ((await sha256(bytes)) !== file.sha256) return;
  await cache.put(address, new Response(bytes, { headers: { "Content-Type": file.type } }));
}

// The file's bytes as a stream, from its gzip copy when there is one, or null when the host
// does not have it.
async function download(address, file) {
  if (file.packed && typeof DecompressionStream === "function") {
    const packed = await fetch(new URL(file.packed, ROOT)).catch(() => null);
    if (packed && packed.ok && packed.body) return unpacked(packed.body);
  }
  const plain = await fetch(address);
  return plain.ok && plain.body ? plain.body : null;
}

// A host may have unpacked the copy already (a .gz served with Content-Encoding: gzip): its first
// two bytes tell.
async function unpacked(body) {
  const reader = body.getReader();
  let head = new Uint8Array(0);
  while (head.length < 2) {
    const { done, value } = await reader.read();
    if (done) break;
    const joined = new Uint8Array(head.length + value.length);
    joined.set(head);
    joined.set(value, head.length);
    head = joined;
  }
  const whole = new ReadableStream({
    start(controller) {
      if (head.length) controller.enqueue(head);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  return gzip ? whole.pipeThrough(new DecompressionStream("gzip")) : whole;
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
