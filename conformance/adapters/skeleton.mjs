// A skeleton adapter for `schotten conformance run`, for Node: one JSON request a line on
// stdin, one JSON answer a line on stdout. It answers `hello` and nothing else yet: plug your
// engine in answer(), one request type at a time, and list in SUPPORTS what it can do.
//
//     schotten conformance run --engine "node conformance/adapters/skeleton.mjs"

import { createInterface } from "node:readline";

const PROTOCOL = "schotten-conformance/1";

// What your engine does: the runner asks only these and counts the rest as "not claimed".
// Kinds: claims, formations, provable, moves, games, perft. Set claim_step to true only if
// your engine plays the claim step as a move of its own (moves, games and perft need it).
const SUPPORTS = { variants: ["base", "tactical"], kinds: ["claims"], claim_step: false };

function answer(request) {
  const kind = request.type;
  if (kind === "hello") {
    if (request.protocol !== PROTOCOL) {
      return { error: "unsupported-protocol", message: `this adapter speaks ${PROTOCOL}` };
    }
    return { protocol: PROTOCOL, engine: "my engine (skeleton)", supports: SUPPORTS };
  }
  // Plug your engine in here, for example:
  // if (kind === "claim") {
  //   return { stones: request.stones.map((n) => myEngine.judge(request.position, request.claimer, n)) };
  // }
  return { error: "unsupported", message: `${kind} is not implemented yet` };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let reply;
  try {
    const request = JSON.parse(line);
    const isObject = request !== null && typeof request === "object" && !Array.isArray(request);
    reply = isObject ? answer(request) : { error: "bad-request", message: "not an object" };
    if (isObject && "id" in request) reply = { id: request.id, ...reply };
  } catch (error) {
    reply = { error: "bad-request", message: `not JSON: ${error.message}` };
  }
  // One line per answer: the runner waits for it. Logs go to stderr, never stdout.
  process.stdout.write(JSON.stringify(reply) + "\n");
}
