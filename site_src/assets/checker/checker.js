// The claim checker: wires the form written by schotten.site.widgets.claim_checker() and asks
// the real engine (schotten.checker, run by Pyodide) for the verdict. Pyodide and the engine are
// served by the site itself, next to this file, and loaded only when the reader opens the
// checker. Every word shown comes from the page's labels (data-labels): none is written here.

const HERE = new URL(".", import.meta.url);
const ENGINE_DIR = "/schotten-engine";
let engine = null; // one Pyodide for every checker of the page, started on the first opening

function loadEngine() {
  if (engine === null) {
    engine = (async () => {
      const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", HERE).href);
      const py = await loadPyodide({ indexURL: new URL("pyodide/", HERE).href });
      const response = await fetch(new URL("schotten-engine.zip", HERE));
      if (!response.ok) {
        throw new Error(`schotten-engine.zip: HTTP ${response.status}`);
      }
      py.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: ENGINE_DIR });
      py.runPython(`import sys\nsys.path.insert(0, "${ENGINE_DIR}")`);
      // pyimport raises if the engine needs anything Pyodide does not have: an honest error
      // state rather than a package fetched from elsewhere.
      const checker = py.pyimport("schotten.checker");
      return (position) => JSON.parse(checker.check(JSON.stringify(position)));
    })();
    engine.catch(() => {
      engine = null; // a later attempt starts again
    });
  }
  return engine;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
}

function loadStylesheet() {
  const href = new URL("checker.css", HERE).href;
  if (!document.querySelector(`link[href="${href}"]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
}

class Checker {
  constructor(root) {
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
    root.querySelector(".schotten-checker__open").addEventListener("click", (e) => this.open(e));
    for (const button of root.querySelectorAll("button[data-card]")) {
      button.addEventListener("click", () => this.toggle(button.dataset.card));
    }
    this.form.elements.tactical.addEventListener("change", () => this.render());
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.check();
    });
    root.querySelector(".schotten-checker__clear").addEventListener("click", () => this.clear());
    this.render();
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

  formationText(formation) {
    const name = this.labels.formations[formation.kind];
    return fill(this.words.formation, { name, total: formation.total });
  }

  currentZone() {
    return this.form.querySelector('input[type="radio"]:checked').value;
  }

  async open(event) {
    event.currentTarget.hidden = true;
    this.form.hidden = false;
    this.form.querySelector('input[type="radio"]:checked').focus();
    this.setStatus(this.words.loading, "loading");
    try {
      await loadEngine();
      this.setStatus(this.words.ready, "ready");
      this.submit.disabled = false;
    } catch (error) {
      console.error(error);
      this.setStatus(this.words.load_error, "error");
    }
  }

  setStatus(text, state) {
    this.status.textContent = text;
    this.root.dataset.state = state;
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
    this.render();
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
      if (button.classList.contains("elite")) button.disabled = !tactical;
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
    let judge;
    try {
      judge = await loadEngine();
    } catch (error) {
      this.setStatus(this.words.load_error, "error");
      return;
    }
    const result = judge(this.position());
    this.show(result);
  }

  show(result) {
    const lines = [];
    const answer = this.answer;
    answer.replaceChildren();
    delete answer.dataset.granted;
    delete answer.dataset.reason;
    delete answer.dataset.error;
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
    if (result.mine) lines.push(fill(this.words.yours, { formation: this.formationText(result.mine) }));
    if (result.witness) {
      const w = result.witness;
      const text = fill(this.words.witness, {
        cards: this.cardsText(w.cards),
        formation: this.formationText(w.formation),
        side: this.cardsText(w.side),
      });
      lines.push(["schotten-checker__witness", text]);
    } else if (result.theirs && result.theirs_complete) {
      lines.push(fill(this.words.theirs, { formation: this.formationText(result.theirs) }));
    } else if (result.theirs) {
      lines.push(fill(this.words.theirs_best, { formation: this.formationText(result.theirs) }));
    } else if (result.mine) {
      lines.push(this.words.theirs_none);
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
    this.answer.replaceChildren();
    this.answer.className = "schotten-checker__answer";
    this.render();
  }
}

const roots = document.querySelectorAll(".schotten-checker:not([data-ready])");
if (roots.length) loadStylesheet();
for (const root of roots) {
  root.dataset.ready = "true";
  new Checker(root);
}
