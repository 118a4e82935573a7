// The search index is fetched when the reader first opens search, not on every page load.
//
// The theme requests search/search_index.json (both languages, about half a megabyte) as each
// page loads, and its worker builds the index from it: work for every page a reader opens, most
// of them without searching. This script runs before the theme's and holds that one request back
// until the search box is focused or its toggle opened (a tap, a click, or the theme's keys « / »
// and « s », which focus the box). Until then the theme says that search is being prepared, as
// it would on a slow network.
(function () {
  "use strict";
  var INDEX = /\/search\/search_index\.json$/;

  var wanted = new Promise(function (resolve) {
    function watch() {
      var input = document.querySelector(".md-search__input");
      var toggle = document.getElementById("__search");
      if (!input || !toggle) return resolve(); // a page without search: nothing to hold
      input.addEventListener("focus", resolve, { once: true });
      toggle.addEventListener("change", resolve, { once: true });
      if (document.activeElement === input || toggle.checked) resolve();
    }
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
    else watch();
  });

  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  var held = new WeakSet();
  XMLHttpRequest.prototype.open = function (method, url) {
    if (INDEX.test(new URL(String(url), location.href).pathname)) held.add(this);
    else held.delete(this);
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (!held.has(this)) return send.apply(this, arguments);
    var request = this;
    var args = arguments;
    wanted.then(function () {
      send.apply(request, args);
    });
  };
})();
