// The « Jouer » page: draws the table written by schotten.site.play_page.play_table() and asks
// the engine's worker (the claim checker's, worker.js: schotten.table_game) for everything else:
// the moves offered are the engine's legal moves, every claim is judged by the engine, the
// computer's moves are its own. Nothing about the rules is decided here. Every word shown comes
// from the page's labels (data-labels).

import { startEngine } from "../checker/checker.js";

const HERE = new URL(".", import.meta.url);
const STORE = "schotten-play-game"; // localStorage: the record of the game in progress
const DEAL = /^#deal=([bt])-(\d{1,15})$/; // "#deal=t-1234": the Tactical variant, seed 1234
const MAX_SEED = 2 ** 53 - 1;

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function element(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function loadStylesheet() {
  const href = new URL("play.css", HERE).href;
  if (document.querySelector(`link[href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = element("link", { rel: "stylesheet", href });
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
    document.head.append(link);
  });
}

function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] % 2 ** 21) * 2 ** 32 + words[1];
}

class Table {
  constructor(root) {
    this.root = root;
    this.labels = JSON.parse(root.dataset.labels);
    this.words = this.labels.table_game;
    this.status = root.querySelector(".schotten-play__status");
    this.gameBox = root.querySelector(".schotten-play__game");
    this.engine = null;
    this.view = null;
    this.log = [];
    // The log stays on the page between renders, each entry drawn once: a whole game's log,
    // drawn again at every tap, cost a phone a third of its work, and closed the proof a
    // player had opened.
    this.logBox = null;
    this.logItems = new WeakMap(); // event -> its entry
    this.selected = null; // the hand card tapped
    this.group = null; // a ruse's first choice (card and stone), when it needs a second
    this.chosen = new Set(); // the stones to claim
    this.verdict = null; // the last stone judged for the person
    this.notice = "";
    this.busy = false;
    this.asking = 0;
    // Each of the computer's steps as the page waited for it: {phase, ms} (the benchmark's).
    this.playTimes = [];
    root.playTimes = this.playTimes; // read by the benchmark
    const start = root.querySelector(".schotten-play__start");
    start.addEventListener("click", () => this.start());
    start.disabled = false;
    window.addEventListener("hashchange", () => {
      if (DEAL.test(location.hash)) this.begin();
    });
    this.start();
  }

  cardName(card) {
    const [colour, value] = card.split(" ");
    if (value === undefined) return this.labels.tactics[card];
    return fill(this.labels.card, { value, colour: this.labels.colours[colour] });
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

  cardsText(cards) {
    return this.joined(cards.map((card) => this.cardName(card)));
  }

  colon() {
    return this.labels.punctuation.colon;
  }

  // -- the engine --------------------------------------------------------------------------

  start() {
    const start = this.root.querySelector(".schotten-play__start");
    start.hidden = true;
    if (this.engine) return;
    try {
      this.engine = startEngine(this.root.dataset.version);
    } catch (error) {
      console.error(error);
      this.setState("error", this.words.load_error);
      return;
    }
    this.engine.watch((state) => {
      if (state.name === "loading") {
        this.setState("loading", this.words.progress[state.step ?? "runtime"]);
      } else if (state.name === "error") {
        this.setState("error", this.words.load_error);
      }
    });
    this.engine.ready.then(
      () => this.begin(),
      () => this.setState("error", this.words.load_error),
    );
  }

  setState(state, text) {
    this.root.dataset.state = state;
    this.status.textContent = text;
    this.root.setAttribute("aria-busy", state === "loading" || state === "thinking" ? "true" : "false");
  }

  // One request to the game in the worker. data-busy says whether one is on its way (the
  // browser tests wait for it to be "false").
  async ask(request) {
    this.asking += 1;
    this.root.dataset.busy = "true";
    try {
      const answer = await this.engine.play(request);
      if (!answer.ok && answer.error === "internal-error") console.error(answer.detail);
      return answer;
    } finally {
      this.asking -= 1;
      if (this.asking === 0) this.root.dataset.busy = "false";
    }
  }

  // The game to show: the deal of the address, else the game kept, else a new deal.
  async begin() {
    const link = DEAL.exec(location.hash);
    let saved = null;
    try {
      saved = JSON.parse(localStorage.getItem(STORE) || "null");
    } catch (error) {
      saved = null;
    }
    if (link) {
      const variant = link[1] === "t" ? "tactical" : "base";
      const seed = Number(link[2]);
      if (seed > MAX_SEED) {
        this.notice = this.words.bad_link;
        return this.deal("base", randomSeed());
      }
      if (saved && saved.variant === variant && saved.seed === seed) return this.restore(saved);
      return this.deal(variant, seed);
    }
    if (saved) return this.restore(saved);
    return this.deal("base", randomSeed());
  }

  async restore(saved) {
    const answer = await this.ask({ op: "load", record: saved.record });
    if (!answer.ok) {
      this.notice = this.words.bad_saved;
      return this.deal(saved.variant === "tactical" ? "tactical" : "base", randomSeed());
    }
    this.notice = this.words.restored;
    this.take(answer);
    await this.computerTurn();
  }

  async deal(variant, seed) {
    const answer = await this.ask({ op: "new", variant, seed });
    if (!answer.ok) {
      this.setState("error", this.words.errors.other);
      return;
    }
    this.take(answer);
    await this.settle();
  }

  // An answer that carries the view: the table is drawn again from it.
  take(answer) {
    this.view = answer.view;
    if (answer.log) this.log = answer.log;
    else if (answer.event) this.log.push(answer.event);
    this.selected = null;
    this.group = null;
    this.chosen = new Set();
    this.verdict = null;
    const v = this.view;
    const deal = `#deal=${v.variant === "tactical" ? "t" : "b"}-${v.seed}`;
    if (location.hash !== deal) history.replaceState(null, "", deal);
    this.render();
  }

  async move(text) {
    if (this.busy) return;
    this.busy = true;
    this.notice = "";
    try {
      const answer = await this.ask({ op: "move", move: text });
      if (!answer.ok) {
        this.notice = this.words.errors.other;
        this.render();
        return;
      }
      this.take(answer);
      await this.computerTurn();
    } finally {
      this.busy = false;
    }
  }

  // The computer's steps, one request each, until it is the person's turn or the game is over.
  async computerTurn() {
    while (this.view && !this.view.outcome && this.view.to_move === "computer") {
      this.setState("thinking", this.words.turn.computer);
      const phase = this.view.phase;
      const began = performance.now();
      const answer = await this.ask({ op: "computer" });
      this.playTimes.push({ phase, ms: performance.now() - began });
      if (!answer.ok) {
        this.setState("error", this.words.errors.other);
        return;
      }
      this.take(answer);
    }
    await this.settle();
  }

  // Between turns: the game is kept, and the status says what comes next.
  async settle() {
    const v = this.view;
    if (!v) return;
    this.render();
    const answer = await this.ask({ op: "record" });
    if (answer.ok) {
      const kept = { variant: v.variant, seed: v.seed, record: answer.record };
      try {
        localStorage.setItem(STORE, JSON.stringify(kept));
      } catch (error) {
        console.warn(error); // private browsing: the game is not kept, it still plays
      }
      this.record = answer.record;
    }
  }

  async undo() {
    if (this.busy) return;
    this.busy = true;
    try {
      const answer = await this.ask({ op: "undo" });
      if (answer.ok) {
        this.notice = "";
        this.take(answer);
        await this.settle();
      } else {
        this.notice = this.words.errors[answer.error] ?? this.words.errors.other;
        this.render();
      }
    } finally {
      this.busy = false;
    }
  }

  async judge(number) {
    if (this.busy) return;
    const answer = await this.ask({ op: "judge", stone: number });
    if (!answer.ok) return;
    const verdict = answer.verdict;
    if (this.view.provable.includes(number)) {
      if (this.chosen.has(number)) this.chosen.delete(number);
      else this.chosen.add(number);
    }
    this.verdict = verdict;
    this.render();
    this.gameBox.querySelector(".schotten-play__verdict")?.focus();
  }

  async download() {
    const answer = await this.ask({ op: "record" });
    if (!answer.ok) return;
    const blob = new Blob([answer.record], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const v = this.view;
    const link = element("a", { href: url, download: `schotten-${v.variant}-${v.seed}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  newDeal(variant) {
    history.replaceState(null, "", `#deal=${variant === "tactical" ? "t" : "b"}-${randomSeed()}`);
    this.notice = "";
    this.begin();
  }

  // -- words ----------------------------------------------------------------------------------

  moveText(move, who) {
    const m = this.labels.moves;
    const own = m.own[who];
    const other = m.other[who];
    switch (move.kind) {
      case "play": {
        const mode = move.card === "mud-fight" || move.card === "blind-mans-bluff";
        return fill(mode ? m.play_mode : m.play, {
          card: this.cardWithArticle(move.card),
          stone: move.stone,
        });
      }
      case "strategist":
        if (move.target === null) {
          return fill(m.strategist_discard, {
            card: this.cardWithArticle(move.card),
            own,
            source: move.source,
          });
        }
        return fill(m.strategist, {
          card: this.cardWithArticle(move.card),
          own,
          source: move.source,
          target: move.target,
        });
      case "banshee":
        return fill(m.banshee, { card: this.cardWithArticle(move.card), other, stone: move.stone });
      case "traitor":
        return fill(m.traitor, {
          card: this.cardWithArticle(move.card),
          other,
          own,
          source: move.source,
          target: move.target,
        });
      case "recruiter": {
        const counts = [];
        for (const deck of ["clan", "tactic"]) {
          const count = move.decks.filter((d) => d === deck).length;
          if (count) counts.push(fill(m.deck_cards[deck][count > 1 ? 1 : 0], { count }));
        }
        return fill(m.recruiter, { decks: this.joined(counts) });
      }
      case "return": {
        const decks = new Set(move.cards.map((c) => (c.includes(" ") ? "clan" : "tactic")));
        const names = move.cards.map((c) => this.cardWithArticle(c));
        const deck = decks.size > 1 ? "both" : [...decks][0];
        return fill(m.return[deck], { cards: this.joined(names) });
      }
      case "pass":
        return m.pass;
      case "claim":
        if (!move.stones.length) return m.claim_none;
        return fill(move.stones.length > 1 ? m.claim_many : m.claim_one, {
          stones: this.joined(move.stones.map(String)),
        });
      case "draw":
        return m.draw[move.deck];
      default:
        return move.text;
    }
  }

  formationText(formation) {
    if (formation.kind === "total") {
      return fill(this.labels.faq.formation_total, { total: formation.total });
    }
    const name = this.labels.formations_a[formation.kind];
    return fill(this.labels.faq.formation, { name, total: formation.total });
  }

  sideText(pairs) {
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

  // A verdict in the FAQ's sentences (the claim checker's answer format); ``computer``: the
  // computer's claim, told from its side.
  proof(verdict, computer = false) {
    const box = element("div", {
      class: `schotten-play__proof ${verdict.granted ? "is-granted" : "is-refused"}`,
      "data-granted": String(verdict.granted),
      "data-reason": verdict.reason,
    });
    const faq = computer ? { ...this.labels.faq, ...this.words.bot } : this.labels.faq;
    const reasons = computer ? this.words.bot.reasons : this.labels.reasons;
    box.append(
      element(
        "p",
        {},
        element("strong", {
          text: `${capital(this.labels.words.stone)} ${verdict.stone}${this.colon()}${
            this.labels.verdicts[verdict.granted ? "granted" : "refused"]
          }`,
        }),
        ` — ${reasons[verdict.reason] ?? this.labels.reasons[verdict.reason]}`,
      ),
    );
    const placed = this.cardsText(verdict.theirs_side.map(([card]) => card));
    const theirs = placed;
    // A side with no card is said in words of its own (« Il n’a encore rien posé »).
    const bare = placed ? "" : "_empty";
    if (verdict.mine) {
      box.append(
        element("p", {
          text: fill(faq.mine, {
            formation: this.formationText(verdict.mine),
            cards: this.sideText(verdict.mine_side),
          }),
        }),
      );
    }
    if (verdict.witness) {
      const w = verdict.witness;
      box.append(
        element("p", {
          class: "schotten-play__witness",
          text: fill(faq[`witness${bare}`], {
            cards: theirs,
            added: this.joined(w.cards.map((card) => this.cardWithArticle(card))),
            formation: this.formationText(w.formation),
            side: this.sideText(w.side_as),
          }),
        }),
      );
      // The side as it would stand, the witness's cards marked: drawn as the table draws cards.
      const row = element("ul", { class: "schotten-play__cards schotten-play__witness-cards" });
      for (const card of w.side) {
        const added = w.cards.includes(card) && !verdict.theirs_side.some(([c]) => c === card);
        row.append(element("li", {}, this.cardFace(card, added ? "is-witness" : "")));
      }
      box.append(row);
    } else if (verdict.theirs && verdict.theirs_complete) {
      box.append(
        element("p", {
          text: fill(faq.theirs, {
            formation: this.formationText(verdict.theirs),
            cards: this.sideText(verdict.theirs_side),
          }),
        }),
      );
    } else if (verdict.theirs) {
      box.append(
        element("p", {
          text: fill(faq[`theirs_best${bare}`], { cards: theirs, formation: this.formationText(verdict.theirs) }),
        }),
      );
    } else if (verdict.mine) {
      box.append(element("p", { text: fill(faq[`theirs_none${bare}`], { cards: theirs }) }));
    }
    return box;
  }

  // -- drawing --------------------------------------------------------------------------------

  // A card drawn as a chip of its colour with its value; a Tactic card by its name, or on the
  // narrow board (``short``) by its initial, the whole name in its title and label.
  cardFace(card, extra = "", short = false) {
    const [colour, value] = card.split(" ");
    const kind = value === undefined ? `tactic tactic-${card}` : `colour-${colour}`;
    const name = this.labels.tactics[card];
    const face = value === undefined ? (short ? name[0] : name) : value;
    return element("span", {
      class: `schotten-play__card ${kind} ${extra}`.trim(),
      title: this.cardName(card),
      "aria-label": this.cardName(card),
      role: "img",
      text: face,
    });
  }

  render() {
    const v = this.view;
    if (!v) return;
    this.gameBox.hidden = false;
    this.root.dataset.phase = v.phase;
    this.root.dataset.toMove = v.to_move;
    this.root.dataset.variant = v.variant;
    this.root.dataset.seed = String(v.seed);
    this.root.dataset.moves = String(v.moves_played);
    if (v.outcome) {
      this.root.dataset.outcome = v.outcome.winner ?? "draw";
      this.root.dataset.termination = v.outcome.termination;
    } else {
      delete this.root.dataset.outcome;
      delete this.root.dataset.termination;
    }
    const focused = document.activeElement?.dataset?.focusKey;
    const w = this.words;
    const parts = [this.renderTools(), this.renderCounts(), this.renderBoard(), this.renderTurn()];
    parts.push(this.renderHand());
    const log = this.renderLog();
    for (const child of [...this.gameBox.children]) if (child !== log) child.remove();
    if (log.parentNode !== this.gameBox) this.gameBox.append(log);
    log.before(...parts.filter(Boolean));
    if (v.outcome) {
      const m = this.labels.moves;
      const key = v.outcome.winner === null ? "draw" : v.outcome.winner === "you" ? "won-by-you" : "won-by-opponent";
      this.setState("over", `${m.game[key]}${m.termination[v.outcome.termination]}.`);
    } else if (v.to_move === "you") {
      this.setState("ready", [this.notice, w.turn[v.phase]].filter(Boolean).join(" "));
    }
    if (focused) this.gameBox.querySelector(`[data-focus-key="${focused}"]:not([disabled])`)?.focus();
  }

  renderTools() {
    const w = this.words;
    const v = this.view;
    const tools = element("div", { class: "schotten-play__tools" });
    const fieldset = element("fieldset", { class: "schotten-play__new" });
    fieldset.append(element("legend", { text: w.new_legend }));
    const name = `schotten-play-variant-${this.root.dataset.lang}`;
    for (const variant of ["base", "tactical"]) {
      const input = element("input", {
        type: "radio",
        name,
        value: variant,
        checked: v.variant === variant,
      });
      fieldset.append(element("label", {}, input, element("span", { text: w.variants[variant] })));
    }
    fieldset.append(
      element("button", {
        type: "button",
        class: "md-button schotten-play__deal",
        "data-focus-key": "deal",
        text: w.new,
        onclick: () => this.newDeal(fieldset.querySelector("input:checked").value),
      }),
    );
    tools.append(fieldset);
    const actions = element("div", { class: "schotten-play__actions" });
    actions.append(
      element("button", {
        type: "button",
        class: "md-button schotten-play__undo",
        "data-focus-key": "undo",
        disabled: !v.can_undo || v.to_move !== "you",
        text: w.undo,
        onclick: () => this.undo(),
      }),
      element("button", {
        type: "button",
        class: "md-button schotten-play__save",
        "data-focus-key": "save",
        text: w.save,
        onclick: () => this.download(),
      }),
      element("a", {
        class: "schotten-play__link",
        href: `#deal=${v.variant === "tactical" ? "t" : "b"}-${v.seed}`,
        text: w.link,
      }),
    );
    tools.append(actions);
    tools.append(
      element("p", {
        class: "schotten-play__deal-name",
        text: fill(w.deal, { variant: w.variants[v.variant], seed: v.seed }),
      }),
    );
    return tools;
  }

  renderCounts() {
    const w = this.words;
    const v = this.view;
    const none = w.none;
    const list = (stones) => (stones.length ? this.joined(stones.map(String)) : none);
    const discards = (cards) => (cards.length ? this.cardsText([...cards]) : this.labels.words.empty_side);
    const counts = fill(v.variant === "tactical" ? w.counts_tactical : w.counts, {
      hand: v.computer_hand,
      clan: v.decks.clan,
      tactic: v.decks.tactic,
    });
    return element(
      "div",
      { class: "schotten-play__counts" },
      element("p", { class: "schotten-play__decks", text: counts }),
      element("p", {
        class: "schotten-play__held",
        text: fill(w.stones_held, { you: list(v.held.you), computer: list(v.held.computer) }),
      }),
      v.discard.you.length || v.discard.computer.length
        ? element("p", {
            class: "schotten-play__discard",
            text: fill(w.discard, { you: discards(v.discard.you), computer: discards(v.discard.computer) }),
          })
        : null,
    );
  }

  // The moves offered for the hand card tapped.
  movesOf(card) {
    return this.view.moves.filter((m) => m.hand_card === card);
  }

  stoneTargets() {
    const v = this.view;
    if (v.to_move !== "you" || v.outcome) return new Map();
    const targets = new Map();
    if (v.phase === "play" && this.selected) {
      const moves = this.movesOf(this.selected);
      if (moves.every((m) => m.kind === "play")) {
        for (const m of moves) targets.set(m.stone, () => this.move(m.text));
      }
    } else if (v.phase === "claim") {
      for (const stone of v.stones) {
        if (!stone.claimed_by) targets.set(stone.number, () => this.judge(stone.number));
      }
    }
    return targets;
  }

  renderBoard() {
    const w = this.words;
    const v = this.view;
    const targets = this.stoneTargets();
    const board = element("ol", { class: "schotten-play__board", "aria-label": w.board });
    for (const stone of v.stones) {
      const item = element("li", {
        class: "schotten-play__stone-column",
        "data-stone": String(stone.number),
        "data-claimed": stone.claimed_by ?? "",
      });
      const side = (cards, who) => {
        const list = element("ul", { class: `schotten-play__side side-${who}` });
        for (const card of cards) list.append(element("li", {}, this.cardFace(card, "", true)));
        return list;
      };
      let state = stone.claimed_by ? w.held[stone.claimed_by] : "";
      if (stone.mud_fight) state += w.modes.mud_fight;
      if (stone.blind_mans_bluff) state += w.modes.blind_mans_bluff;
      const label = fill(w.stone_label, {
        number: stone.number,
        theirs: stone.computer.length ? this.cardsText([...stone.computer]) : w.empty,
        yours: stone.you.length ? this.cardsText([...stone.you]) : w.empty,
        state,
      });
      const act = targets.get(stone.number);
      const button = element("button", {
        type: "button",
        class: [
          "schotten-play__stone",
          stone.claimed_by ? `held-${stone.claimed_by}` : "",
          this.chosen.has(stone.number) ? "is-chosen" : "",
          stone.mud_fight ? "mud" : "",
          stone.blind_mans_bluff ? "blind" : "",
        ]
          .filter(Boolean)
          .join(" "),
        "data-stone": String(stone.number),
        "data-focus-key": `stone-${stone.number}`,
        "aria-label": label,
        "aria-pressed": v.phase === "claim" && v.to_move === "you" ? String(this.chosen.has(stone.number)) : null,
        disabled: !act,
        text: String(stone.number),
        onclick: act,
      });
      item.append(side(stone.computer, "computer"), button, side(stone.you, "you"));
      board.append(item);
    }
    return board;
  }

  renderTurn() {
    const w = this.words;
    const v = this.view;
    const box = element("div", { class: "schotten-play__turn" });
    if (v.to_move !== "you" || v.outcome) return box;
    const button = (text, move, extra = {}) =>
      element("button", {
        type: "button",
        class: "md-button schotten-play__choice",
        "data-move": move,
        "data-focus-key": `move-${move}`,
        text,
        onclick: () => this.move(move),
        ...extra,
      });
    if (v.phase === "play") {
      if (this.selected) {
        const moves = this.movesOf(this.selected);
        if (moves.every((m) => m.kind === "play")) {
          box.append(element("p", { text: fill(w.pick_stone, { card: this.cardWithArticle(this.selected) }) }));
        } else {
          box.append(element("p", { text: w.pick }));
          const list = element("div", { class: "schotten-play__choices" });
          // A ruse: first the card it takes (and from where), then, if more than one move
          // remains, each whole move.
          const keyOf = (m) => (m.card ? `${m.card}@${m.source ?? m.stone}` : m.text);
          const groups = new Map();
          for (const m of moves) groups.set(keyOf(m), [...(groups.get(keyOf(m)) ?? []), m]);
          if (this.group && groups.has(this.group)) {
            for (const m of groups.get(this.group)) list.append(button(capital(this.moveText(m, "you")), m.text));
          } else {
            for (const [key, group] of groups) {
              const m = group[0];
              if (group.length === 1) {
                list.append(button(capital(this.moveText(m, "you")), m.text));
              } else {
                const at = m.source ?? m.stone;
                list.append(
                  element("button", {
                    type: "button",
                    class: "md-button schotten-play__choice",
                    "data-group": key,
                    "data-focus-key": `group-${key}`,
                    text: `${capital(this.cardName(m.card))}, ${fill(w.stone, { number: at })}`,
                    onclick: () => {
                      this.group = key;
                      this.render();
                      this.gameBox.querySelector(".schotten-play__choices button")?.focus();
                    },
                  }),
                );
              }
            }
          }
          box.append(list);
        }
        box.append(
          element("button", {
            type: "button",
            class: "md-button schotten-play__cancel",
            "data-focus-key": "cancel",
            text: w.cancel,
            onclick: () => {
              this.selected = null;
              this.group = null;
              this.render();
              this.gameBox.querySelector(".schotten-play__hand button:not([disabled])")?.focus();
            },
          }),
        );
      }
      const pass = v.moves.find((m) => m.kind === "pass");
      if (pass) box.append(button(w.pass, "pass"));
    } else if (v.phase === "claim") {
      const stones = [...this.chosen].sort((a, b) => a - b);
      if (stones.length) box.append(button(fill(w.claim, { stones: this.joined(stones.map(String)) }), `claim ${stones.join(" ")}`, { class: "md-button md-button--primary schotten-play__choice" }));
      box.append(button(w.claim_none, "claim none"));
      if (this.verdict) {
        const region = element("div", {
          class: "schotten-play__verdict",
          tabindex: "-1",
          "aria-label": fill(w.verdict_title, { number: this.verdict.stone }),
        });
        const chosen = this.chosen.has(this.verdict.stone);
        if (this.verdict.granted) {
          region.append(element("p", { text: fill(chosen ? w.chosen : w.unchosen, { number: this.verdict.stone }) }));
        }
        region.append(this.proof(this.verdict));
        box.append(region);
      }
    } else if (v.phase === "draw") {
      for (const m of v.moves) box.append(button(w.draw[m.deck], m.text));
    } else if (v.phase === "return") {
      const list = element("div", { class: "schotten-play__choices" });
      for (const m of v.moves) list.append(button(capital(this.moveText(m, "you")), m.text));
      box.append(list);
    }
    return box;
  }

  renderHand() {
    const w = this.words;
    const v = this.view;
    const box = element("section", { class: "schotten-play__hand", "aria-label": w.hand });
    box.append(element("h2", { class: "schotten-play__title", text: w.hand }));
    const list = element("ul", { class: "schotten-play__cards" });
    const playing = v.to_move === "you" && v.phase === "play" && !v.outcome;
    for (const card of v.hand) {
      const moves = playing ? this.movesOf(card) : [];
      const face = this.cardFace(card);
      face.removeAttribute("role");
      face.removeAttribute("aria-label");
      list.append(
        element(
          "li",
          {},
          element(
            "button",
            {
              type: "button",
              class: "schotten-play__hand-card",
              "data-card": card,
              "data-focus-key": `card-${card}`,
              "aria-label": this.cardName(card),
              "aria-pressed": playing ? String(this.selected === card) : null,
              disabled: !moves.length,
              onclick: () => {
                this.selected = this.selected === card ? null : card;
                this.group = null;
                this.render();
              },
            },
            face,
          ),
        ),
      );
    }
    box.append(list);
    return box;
  }

  // The last 60 entries, newest first: entries already shown are kept as they are (a proof
  // opened stays open), new ones put on top, the oldest taken off.
  renderLog() {
    const w = this.words;
    if (!this.logBox) {
      this.logBox = element("section", { class: "schotten-play__log", "aria-label": w.log });
      this.logBox.append(element("h2", { class: "schotten-play__title", text: w.log }), element("ol", { reversed: true }));
    }
    const list = this.logBox.querySelector("ol");
    const wanted = [...this.log.entries()].reverse().slice(0, 60).map(([index, event]) => this.logItem(index, event));
    const shown = [...list.children];
    const from = shown.length ? wanted.indexOf(shown[0]) : -1;
    if (from >= 0 && wanted.slice(from).every((item, i) => shown[i] === item)) {
      list.prepend(...wanted.slice(0, from));
      for (const item of shown.slice(wanted.length - from)) item.remove();
    } else {
      list.replaceChildren(...wanted);
    }
    return this.logBox;
  }

  logItem(index, event) {
    const known = this.logItems.get(event);
    if (known && known.value === index + 1) return known;
    const w = this.words;
    const who = { you: "you", computer: "opponent" };
    let text = `${this.labels.moves.who[who[event.player]]}${this.colon()}${this.moveText(event.move, who[event.player])}`;
    if (Array.isArray(event.drawn) && event.drawn.length) {
      text += ` (${fill(w.you_drew, { cards: this.cardsText([...event.drawn]) })})`;
    }
    const item = element("li", { value: String(index + 1), "data-player": event.player, "data-kind": event.move.kind });
    item.append(element("span", { text }));
    if (event.verdicts.length) {
      const details = element("details", { class: "schotten-play__log-proof" });
      details.append(element("summary", { text: w.proof }));
      for (const verdict of event.verdicts) details.append(this.proof(verdict, event.player === "computer"));
      item.append(details);
    }
    this.logItems.set(event, item);
    return item;
  }
}

const roots = document.querySelectorAll(".schotten-play:not([data-ready])");
if (roots.length) {
  loadStylesheet().then(() => {
    for (const root of roots) {
      root.dataset.ready = "true";
      new Table(root);
    }
  });
}
