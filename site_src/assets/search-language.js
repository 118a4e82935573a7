// Search results in the page's language only (and first), those that hold the most words typed
// first.
//
// The i18n plugin writes one search index for both languages (each with its own stemmer), so a
// query matches French and Spanish pages alike. This hides the results of the other language and
// recounts the visible ones with the theme's own words. Spanish pages live under <root>/es/.
// A query of several words also matches pages that hold only a small one (« de »): the theme
// names the words each result holds in its link (?h=…), and the results that hold more of them
// come first, in the theme's order otherwise.
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("__config").textContent);
  var root = new URL(config.base.replace(/\/?$/, "/"), location.href);
  var language = document.documentElement.lang || "fr";

  function languageOf(href) {
    var path = new URL(href, location.href).pathname;
    var inside = path.indexOf(root.pathname) === 0 ? path.slice(root.pathname.length) : path;
    var first = inside.split("/")[0];
    return first === "es" ? "es" : "fr";
  }

  // When every hit is in the other language, the reader is told so in the page's language (the
  // theme would only say "no document"), with the number of hits there. French spacing: U+202F
  // before ";", U+00A0 before ":".
  var ELSEWHERE = {
    fr: {
      one: "Aucun résultat en français\u202f; 1 page en espagnol contient ces mots\u00a0: passe à l\u2019espagnol avec le choix de langue en haut de la page.",
      other: "Aucun résultat en français\u202f; # pages en espagnol contiennent ces mots\u00a0: passe à l\u2019espagnol avec le choix de langue en haut de la page."
    },
    es: {
      one: "Ningún resultado en español; 1 página en francés contiene estas palabras: cambia al francés con el selector de idioma de arriba.",
      other: "Ningún resultado en español; # páginas en francés contienen estas palabras: cambia al francés con el selector de idioma de arriba."
    }
  };

  function recount(list, meta) {
    var items = list.querySelectorAll(".md-search-result__item");
    var shown = list.querySelectorAll(".md-search-result__item:not([hidden])").length;
    var words = config.translations || {};
    if (!list.children.length) return;
    var elsewhere = ELSEWHERE[language] || ELSEWHERE.fr;
    var other = items.length - shown;
    if (shown === 0 && other > 0) {
      meta.textContent = (other === 1 ? elsewhere.one : elsewhere.other).replace("#", String(other));
      meta.classList.add("search-other-language");
    } else {
      meta.classList.remove("search-other-language");
      if (shown === 0) meta.textContent = words["search.result.none"] || "0";
      else if (shown === 1) meta.textContent = words["search.result.one"] || "1";
      else meta.textContent = (words["search.result.other"] || "#").replace("#", String(shown));
    }
  }

  function wordsHeld(item) {
    var link = item.querySelector("a[href]");
    if (!link) return 0;
    var held = new URL(link.getAttribute("href"), location.href).searchParams.get("h") || "";
    return held.split(/\s+/).filter(Boolean).length;
  }

  function filter(list, meta, observer) {
    var items = Array.prototype.slice.call(list.querySelectorAll(".md-search-result__item"));
    items.forEach(function (item) {
      var link = item.querySelector("a[href]");
      if (link) item.hidden = languageOf(link.getAttribute("href")) !== language;
    });
    var ranked = items.map(function (item, i) {
      return { item: item, i: i, mine: item.hidden ? 0 : 1, n: wordsHeld(item) };
    });
    ranked.sort(function (a, b) { return b.mine - a.mine || b.n - a.n || a.i - b.i; });
    if (ranked.some(function (r, i) { return r.item !== items[i]; })) {
      observer.disconnect(); // moving the results is no new result
      ranked.forEach(function (r) { list.appendChild(r.item); });
      observer.observe(list, { childList: true });
    }
    recount(list, meta);
  }

  function watch() {
    var list = document.querySelector(".md-search-result__list");
    var meta = document.querySelector(".md-search-result__meta");
    if (!list || !meta) return;
    var observer = new MutationObserver(function () { filter(list, meta, observer); });
    observer.observe(list, { childList: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
