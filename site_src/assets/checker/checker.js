// The claim checker: wires the form written by schotten.site.widgets.claim_checker() and asks
// the real engine (schotten.checker, run by Pyodide in a worker, worker.js) for the verdict.
// Pyodide and the engine are served by the site itself, next to this file, and loaded only when
// the reader opens the checker. Every word shown comes from the page's labels (data-labels):
// none is written here.

const HERE = new URL(".", import.meta.url);

// One engine for every checker of the page: a module worker (worker.js) that loads Pyodide and
// answers, started on the first opening. The page only renders; it never runs Python.
class Engine {
  constructor(version) {
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
    this.listeners = new Set();
    this.state = { name: "loading", step: null };
    // The worker starts once the service worker keeps what it loads (or cannot).
    this.ready = keepFiles(version).then((kept) => this.boot(kept ? version : null));
    this.ready.catch(() => {}); // every caller handles it
  }

  boot(kept) {
    // With this version's files kept, the worker keeps beside them the engine as it stands once
    // started (worker.js).
    const script = new URL(kept ? `worker.js?kept=${encodeURIComponent(kept)}` : "worker.js", HERE);
    this.worker = new Worker(script, { type: "module" });
    return new Promise((resolve, reject) => {
      this.worker.onmessage = ({ data }) => {
        if (data.type === "progress") {
          this.publish({ name: "loading", step: data.step });
        } else if (data.type === "ready") {
          this.publish({ name: "ready", step: null });
          resolve(this);
        } else if (data.type === "failed") {
          this.fail(new Error(data.message), reject);
        } else if (data.type === "answer") {
          const waiting = this.pending.get(data.id);
          this.pending.delete(data.id);
          if (!waiting) return;
          if ("failure" in data) waiting.reject(new Error(data.failure));
          else waiting.resolve(data.result);
        }
      };
      this.worker.onerror = (event) => {
        event.preventDefault();
        this.fail(new Error(event.message || "the engine's worker stopped"), reject);
      };
    });
  }

  fail(error, reject) {
    console.error(error);
    this.worker.terminate();
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
    if (engine === this) engine = null; // a later attempt starts again
    this.publish({ name: "error", step: null });
    reject(error);
  }

  publish(state) {
    this.state = state;
    for (const listen of this.listeners) listen(state);
  }

  watch(listen) {
    this.listeners.add(listen);
    listen(this.state);
  }

  async check(position) {
    return this.ask({ type: "check", position });
  }

  // A request to the « Jouer » page's game (schotten.table_game, in the same worker).
  async play(request) {
    return this.ask({ type: "play", request });
  }

  async ask(message) {
    await this.ready;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }
}

let engine = null;

// The service worker at the site's root (checker-sw.js, written with the site) keeps the files the
// engine's worker loads: a second opening downloads nothing, and works offline. Its address
// carries the version of this build's files (the page's data-version): the browser installs it
// anew for another build, which deletes the files of the builds before; for the same build, it
// is already there, with nothing to ask the network. Resolves to true once this build's service
// worker is active, to false when there is none to be had (the checker then loads from the
// network, as without it).
const SERVICE_WORKER = new URL("../../checker-sw.js", HERE);
const KEEP_FILES_TIMEOUT = 10_000; // ms: past this, the engine starts without waiting

async function keepFiles(version) {
  if (!("serviceWorker" in navigator) || !version) return false;
  const script = `${SERVICE_WORKER.href}?v=${encodeURIComponent(version)}`;
  // A page that this build's service worker already serves (any visit after the first): the
  // files are kept, and the engine starts without waiting on the registration.
  const serving = navigator.serviceWorker.controller;
  if (serving && serving.scriptURL === script && serving.state === "activated") return true;
  const waiting = (async () => {
    const scope = new URL("./", SERVICE_WORKER).href;
    await activated(await navigator.serviceWorker.register(script, { scope }));
    return true;
  })();
  const late = new Promise((resolve) => setTimeout(() => resolve(false), KEEP_FILES_TIMEOUT));
  return Promise.race([waiting, late]).catch((error) => {
    console.warn(error);
    return false;
  });
}

// Resolves once no newer worker of the registration is installing or waiting and the active one
// has taken over.
async function activated(registration) {
  for (;;) {
    const coming = registration.installing || registration.waiting;
    const worker = coming || registration.active;
    if (!worker) return;
    if (!coming && worker.state === "activated") return;
    if (worker.state === "redundant") {
      await new Promise((resolve) => setTimeout(resolve, 50)); // the registration moves on
      continue;
    }
    await new Promise((resolve) => worker.addEventListener("statechange", resolve, { once: true }));
  }
}

// The « Jouer » page (assets/play/play.js) starts the same engine, with the same kept files.
export function startEngine(version) {
  if (engine === null) engine = new Engine(version);
  return engine;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
}

// Resolves once the checker's stylesheet has loaded (or failed to): only then is the checker laid
// out where it stays.
function loadStylesheet() {
  const href = new URL("checker.css", HERE).href;
  let link = document.querySelector(`link[href="${href}"]`);
  if (link && link.sheet) return Promise.resolve();
  const loaded = new Promise((resolve) => {
    if (!link) {
      link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
    }
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
  if (!link.isConnected) document.head.append(link);
  return loaded;
}

// A position in the page's address: "#check=" then the options and the four zones' cards, each
// part after a "-" (written at build time by schotten.checker.fragment_of, whose doc gives the
// format; the two must agree, which the browser tests check on every published case).
const FRAGMENT = "#check=";
const MAX_CODE = 400; // characters: the longest position is far shorter
const ZONE_ORDER = ["mine", "theirs", "elsewhere-mine", "elsewhere-theirs"];
const ELITE_OF = { J: "joker", S: "spy", B: "shield-bearer" };
const COLOUR_OF = { r: "red", o: "orange", y: "yellow", g: "green", b: "blue", p: "purple" };
const CARD_CODE = /[roygbp][1-9]|[JSB]/g;

function encodePosition(zones, options) {
  let head = options.tactical ? "t" : "b";
  if (options.mud_fight) head += "m";
  if (options.blind_mans_bluff) head += "c";
  if (options.completed_first === "opponent") head += "o";
  const code = (card) => {
    const elite = Object.keys(ELITE_OF).find((key) => ELITE_OF[key] === card);
    if (elite) return elite;
    const [colour, value] = card.split(" ");
    return colour[0] + value;
  };
  return [head, ...ZONE_ORDER.map((zone) => zones[zone].map(code).join(""))].join("-");
}

// The position of an address's code, or null when it is not one (never an exception).
function decodePosition(code) {
  if (code.length > MAX_CODE) return null;
  const parts = code.split("-");
  if (parts.length !== 1 + ZONE_ORDER.length) return null;
  const head = /^([bt])(m?)(c?)(o?)$/.exec(parts[0]);
  if (!head) return null;
  const zones = {};
  for (const [i, part] of parts.slice(1).entries()) {
    if (part.replace(CARD_CODE, "") !== "") return null;
    zones[ZONE_ORDER[i]] = (part.match(CARD_CODE) ?? []).map((token) =>
      token.length === 1 ? ELITE_OF[token] : `${COLOUR_OF[token[0]]} ${token[1]}`,
    );
  }
  return {
    zones,
    tactical: head[1] === "t",
    mud_fight: head[2] !== "",
    blind_mans_bluff: head[3] !== "",
    completed_first: head[4] ? "opponent" : "you",
  };
}

class Checker {
  constructor(root, styled) {
    this.root = root;
    this.labels = JSON.parse(root.dataset.labels);
    this.words = this.labels.checker;
    this.form = root.querySelector("form");
    this.status = root.querySelector(".schotten-checker__status");
    this.answer = root.querySelector(".schotten-checker__answer");
    this.submit = this.form.querySelector('button[type="submit"]');
    this.zones = {};
    for (const held of root.querySelectorAll(".schotten-checker__held")) {
      this.zones[held.dataset.zone] = [];
    }
    this.submit.disabled = true;
    this.engine = null;
    this.version = 0; // bumped by every change of the position
    const opener = root.querySelector(".schotten-checker__open");
    opener.addEventListener("click", () => this.open());
    // Offered only once a click is handled and the stylesheet has laid the checker out, so that
    // the button does not move under a pointer that is about to press it.
    styled.then(() => {
      opener.disabled = false;
    });
    for (const button of root.querySelectorAll("button[data-card]")) {
      button.addEventListener("click", () => this.toggle(button.dataset.card));
    }
    for (const name of ["tactical", "mud_fight", "blind_mans_bluff", "completed_first"]) {
      this.form.elements[name].addEventListener("change", () => this.changed());
    }
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.check();
    });
    root.querySelector(".schotten-checker__clear").addEventListener("click", () => this.clear());
    root.querySelector(".schotten-checker__copy").addEventListener("click", () => this.copyLink());
    // The example is a link to its position (it works before this script runs); followed again
    // after a change, it loads the example again.
    const example = root.querySelector(".schotten-checker__example");
    example.addEventListener("click", (event) => {
      event.preventDefault();
      history.replaceState(null, "", example.hash);
      this.fromAddress(example.hash);
    });
    this.notice = root.querySelector(".schotten-checker__notice");
    this.linkVersion = null; // the version of a position that came from the address
    this.render();
    // The address the reader went to, from the event: by the time it is handled, the theme's
    // heading tracking may already have replaced the address with a heading's.
    window.addEventListener("hashchange", (event) => this.fromAddress(new URL(event.newURL).hash));
    this.fromAddress(location.hash);
  }

  // A position in the address opens the checker on it and asks the engine at once.
  fromAddress(hash) {
    if (!hash.startsWith(FRAGMENT)) return;
    const position = decodePosition(hash.slice(FRAGMENT.length));
    this.openForm();
    this.clear();
    this.root.scrollIntoView();
    if (position === null) {
      this.say(this.words.link_bad, "bad");
      return;
    }
    for (const zone of ZONE_ORDER) this.zones[zone] = [...position.zones[zone]];
    for (const name of ["tactical", "mud_fight", "blind_mans_bluff"]) {
      this.form.elements[name].checked = position[name];
    }
    this.form.elements.completed_first.value = position.completed_first;
    this.changed();
    this.linkVersion = this.version;
    this.check();
  }

  say(text, kind = "") {
    this.notice.textContent = text;
    this.notice.dataset.kind = kind;
  }

  copyLink() {
    const options = {
      tactical: this.form.elements.tactical.checked,
      mud_fight: this.form.elements.mud_fight.checked,
      blind_mans_bluff: this.form.elements.blind_mans_bluff.checked,
      completed_first: this.form.elements.completed_first.value,
    };
    const url = new URL(location.href);
    url.hash = FRAGMENT + encodePosition(this.zones, options);
    history.replaceState(null, "", url.href); // the address bar shows it too
    this.root.dataset.link = url.href;
    this.say(this.words.link_copied, "copied");
    if (navigator.clipboard) navigator.clipboard.writeText(url.href).catch(() => {});
  }

  cardName(card) {
    const [colour, value] = card.split(" ");
    if (value === undefined) return this.labels.tactics[card];
    return fill(this.labels.card, { value, colour: this.labels.colours[colour] });
  }

  cardsText(cards) {
    // "3 rouge, 3 vert et 3 bleu", as the pages list cards.
    const names = cards.map((card) => this.cardName(card));
    const last = names.pop();
    return names.length ? names.join(", ") + this.labels.and + last : last || "";
  }

  cardWithArticle(card) {
    const [colour, value] = card.split(" ");
    if (value === undefined) return this.labels.tactics_the[card];
    return fill(this.labels.card_the, { value, colour: this.labels.colours[colour] });
  }

  joined(names) {
    const last = names.pop();
    return names.length ? names.join(", ") + this.labels.and + last : last || "";
  }

  sideText(pairs) {
    // A side as the pages write it: each elite troop with the card it becomes
    // ("3 rouge, 3 vert et le Joker en 3 orange"); the engine gives the pairs.
    return this.joined(
      pairs.map(([card, as]) =>
        as
          ? fill(this.labels.words.elite_as, {
              troop: this.cardWithArticle(card),
              card: this.cardName(as),
            })
          : this.cardName(card),
      ),
    );
  }

  formationText(formation) {
    // "un Brelan, total 9", "un total de 26": the pages' words (schotten.site.faq).
    if (formation.kind === "total") {
      return fill(this.labels.faq.formation_total, { total: formation.total });
    }
    const name = this.labels.formations_a[formation.kind];
    return fill(this.labels.faq.formation, { name, total: formation.total });
  }

  currentZone() {
    return this.form.querySelector('input[type="radio"]:checked').value;
  }

  open() {
    this.openForm();
  }

  openForm() {
    if (!this.form.hidden) return;
    this.root.querySelector(".schotten-checker__open").hidden = true;
    this.form.hidden = false;
    this.form.querySelector('input[type="radio"]:checked').focus();
    this.watchEngine();
  }

  watchEngine() {
    try {
      this.engine = startEngine(this.root.dataset.version);
    } catch (error) {
      console.error(error); // a browser without module workers
      this.showEngineState({ name: "error", step: null });
      return;
    }
    this.engine.watch((state) => this.showEngineState(state));
  }

  showEngineState(state) {
    if (state.name === "loading") {
      const step = state.step ?? "runtime";
      this.setStatus(this.words.progress[step], "loading", step);
    } else if (state.name === "ready") {
      this.setStatus(this.words.ready, "ready");
    } else {
      this.setStatus(this.words.load_error, "error");
    }
    this.submit.disabled = state.name !== "ready";
  }

  setStatus(text, state, step = "") {
    this.status.textContent = text;
    this.root.dataset.state = state;
    this.root.dataset.step = step;
    this.root.setAttribute("aria-busy", state === "loading" ? "true" : "false");
  }

  toggle(card) {
    const zone = this.currentZone();
    const here = this.zones[zone];
    if (here.includes(card)) {
      here.splice(here.indexOf(card), 1);
    } else {
      // A Clan card, the Spy or the Shield Bearer exists once: it moves to the chosen zone.
      // Two Jokers exist, so a Joker is added (the engine refuses a third, or two for one player).
      if (card !== "joker") {
        for (const cards of Object.values(this.zones)) {
          const at = cards.indexOf(card);
          if (at >= 0) cards.splice(at, 1);
        }
      }
      here.push(card);
    }
    this.changed();
  }

  // The position changed: an answer on screen is no longer about it, nor one still on its way.
  changed() {
    this.version += 1;
    this.say("");
    this.clearAnswer();
    this.render();
  }

  clearAnswer() {
    this.answer.replaceChildren();
    this.answer.className = "schotten-checker__answer";
    this.answer.removeAttribute("aria-busy");
    for (const key of ["granted", "reason", "error", "failure"]) delete this.answer.dataset[key];
  }

  render() {
    const tactical = this.form.elements.tactical.checked;
    for (const name of ["mud_fight", "blind_mans_bluff"]) {
      this.form.elements[name].disabled = !tactical;
    }
    const zoneOf = new Map();
    for (const [zone, cards] of Object.entries(this.zones)) {
      for (const card of cards) zoneOf.set(card, zone);
      const held = this.root.querySelector(`.schotten-checker__held[data-zone="${zone}"]`);
      held.textContent = cards.length ? this.cardsText(cards) : this.words.empty;
    }
    for (const button of this.root.querySelectorAll("button[data-card]")) {
      const card = button.dataset.card;
      const zone = zoneOf.get(card);
      const name = this.cardName(card);
      const box = zone && this.root.querySelector(`.schotten-checker__zone.zone-${zone}`);
      button.setAttribute("aria-pressed", zone ? "true" : "false");
      button.setAttribute(
        "aria-label",
        zone ? fill(this.words.in_zone, { card: name, zone: this.words.zones[zone] }) : name,
      );
      button.dataset.zoneIndex = box ? box.dataset.zoneIndex : "";
      // Outside the Tactical variant an elite troop cannot be added, but one already placed can
      // still be taken back (the engine refuses it in a base game until then).
      if (button.classList.contains("elite")) button.disabled = !tactical && !zone;
    }
  }

  position() {
    const tactical = this.form.elements.tactical.checked;
    return {
      variant: tactical ? "tactical" : "base",
      mine: this.zones.mine,
      theirs: this.zones.theirs,
      elsewhere: { mine: this.zones["elsewhere-mine"], theirs: this.zones["elsewhere-theirs"] },
      mud_fight: tactical && this.form.elements.mud_fight.checked,
      blind_mans_bluff: tactical && this.form.elements.blind_mans_bluff.checked,
      completed_first: this.form.elements.completed_first.value,
    };
  }

  async check() {
    if (!this.engine) this.watchEngine();
    if (!this.engine) return;
    const version = this.version;
    this.clearAnswer();
    this.answer.setAttribute("aria-busy", "true");
    let result;
    try {
      result = await this.engine.check(this.position());
    } catch (error) {
      if (version !== this.version) return;
      console.error(error);
      this.clearAnswer();
      this.answer.dataset.failure = "true";
      this.answer.className = "schotten-checker__answer is-error";
      const p = document.createElement("p");
      p.textContent = this.words.load_error;
      this.answer.append(p);
      return;
    }
    if (version !== this.version) return; // the reader changed the position meanwhile
    this.answer.removeAttribute("aria-busy");
    this.show(result);
  }

  show(result) {
    const lines = [];
    const answer = this.answer;
    answer.replaceChildren();
    delete answer.dataset.granted;
    delete answer.dataset.reason;
    delete answer.dataset.error;
    if (!result.ok && this.linkVersion === this.version) {
      // An address holding a position that cannot occur: the checker stays empty.
      const problem = fill(this.words.errors[result.error] ?? this.words.errors["bad-input"], {
        cards: this.cardsText(result.cards ?? []),
        zone: result.zone ? this.words.zones[result.zone] : "",
        count: result.count,
        capacity: result.capacity,
      }).replace(/[.]$/, "");
      this.clear();
      this.say(fill(this.words.link_impossible, { problem }), "impossible");
      return;
    }
    if (!result.ok) {
      const zone = result.zone ? this.words.zones[result.zone] : "";
      const text = fill(this.words.errors[result.error] ?? this.words.errors["bad-input"], {
        cards: this.cardsText(result.cards ?? []),
        zone,
        count: result.count,
        capacity: result.capacity,
      });
      answer.dataset.error = result.error;
      answer.className = "schotten-checker__answer is-error";
      const p = document.createElement("p");
      p.textContent = text;
      answer.append(p);
      return;
    }
    answer.dataset.granted = String(result.granted);
    answer.dataset.reason = result.reason;
    answer.className = `schotten-checker__answer ${result.granted ? "is-granted" : "is-refused"}`;
    const head = document.createElement("p");
    const verdict = document.createElement("strong");
    verdict.className = "schotten-checker__verdict";
    verdict.textContent = this.labels.verdicts[result.granted ? "granted" : "refused"];
    const reason = document.createElement("span");
    reason.className = "schotten-checker__reason";
    reason.textContent = this.labels.reasons[result.reason];
    head.append(verdict, " — ", reason);
    answer.append(head);
    // The same sentences as the pages' reasoning (schotten.site.faq.reasoning).
    const faq = this.labels.faq;
    const placed = this.cardsText(result.theirs_side.map(([card]) => card));
    const theirs = placed;
    // A side with no card is said in words of its own (« Il n’a encore rien posé »).
    const bare = placed ? "" : "_empty";
    if (result.mine) {
      lines.push(
        fill(faq.mine, {
          formation: this.formationText(result.mine),
          cards: this.sideText(result.mine_side),
        }),
      );
    }
    if (result.witness) {
      const w = result.witness;
      const text = fill(faq[`witness${bare}`], {
        cards: theirs,
        added: this.joined(w.cards.map((card) => this.cardWithArticle(card))),
        formation: this.formationText(w.formation),
        side: this.sideText(w.side_as),
      });
      lines.push(["schotten-checker__witness", text]);
    } else if (result.theirs && result.theirs_complete) {
      lines.push(
        fill(faq.theirs, {
          formation: this.formationText(result.theirs),
          cards: this.sideText(result.theirs_side),
        }),
      );
    } else if (result.theirs) {
      lines.push(fill(faq[`theirs_best${bare}`], { cards: theirs, formation: this.formationText(result.theirs) }));
    } else if (result.mine) {
      lines.push(fill(faq[`theirs_none${bare}`], { cards: theirs }));
    }
    for (const line of lines) {
      const p = document.createElement("p");
      if (Array.isArray(line)) {
        p.className = line[0];
        p.textContent = line[1];
      } else {
        p.textContent = line;
      }
      answer.append(p);
    }
  }

  clear() {
    for (const zone of Object.keys(this.zones)) this.zones[zone] = [];
    for (const name of ["tactical", "mud_fight", "blind_mans_bluff"]) {
      this.form.elements[name].checked = false;
    }
    this.form.elements.completed_first.selectedIndex = 0;
    this.form.querySelector('input[type="radio"]').checked = true; // the first zone
    this.changed();
  }
}

const roots = document.querySelectorAll(".schotten-checker:not([data-ready])");
const styled = roots.length ? loadStylesheet() : Promise.resolve();
for (const root of roots) {
  root.dataset.ready = "true";
  new Checker(root, styled);
}
