// The interactive border: wires the markup of schotten.site.border.border(). Who has won, and
// why, is looked up in the table the engine computed at build time (data-outcomes: one character
// per assignment of the nine stones); every word comes from the page's labels (data-labels).

const HERE = new URL(".", import.meta.url);
const OWNERS = 3; // nobody, you, the opponent: the order a tap cycles through

function loadStylesheet() {
  const href = new URL("border.css", HERE).href;
  if (!document.querySelector(`link[href="${href}"]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
}

class Border {
  constructor(root) {
    this.root = root;
    this.outcomes = root.dataset.outcomes;
    this.words = JSON.parse(root.dataset.labels);
    this.stones = [...root.querySelectorAll("button[data-stone]")];
    this.result = root.querySelector(".schotten-border__result");
    for (const button of this.stones) {
      button.addEventListener("click", () => {
        button.dataset.owner = String((Number(button.dataset.owner) + 1) % OWNERS);
        this.render();
      });
      button.disabled = false;
    }
    const reset = root.querySelector(".schotten-border__reset");
    reset.addEventListener("click", () => {
      for (const button of this.stones) button.dataset.owner = "0";
      this.render();
    });
    reset.disabled = false;
    this.render();
    root.dataset.ready = "true";
  }

  render() {
    let index = 0;
    this.stones.forEach((button, i) => {
      const owner = Number(button.dataset.owner);
      index += owner * OWNERS ** i;
      button.setAttribute(
        "aria-label",
        fill(this.words.stone, { number: button.dataset.stone, owner: this.words.owners[owner] }),
      );
    });
    const code = Number(this.outcomes[index]);
    const mine = Math.floor(code / 3);
    const theirs = code % 3;
    const kinds = ["", "three", "five"];
    let key = "none";
    if (mine && theirs) key = "both";
    else if (mine) key = `you_${kinds[mine]}`;
    else if (theirs) key = `opponent_${kinds[theirs]}`;
    this.root.dataset.result = key;
    this.result.textContent = this.words.results[key];
  }
}

const roots = document.querySelectorAll(".schotten-border:not([data-ready])");
if (roots.length) loadStylesheet();
for (const root of roots) new Border(root);
