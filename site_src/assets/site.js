// Two small helps for readers.
//
// - A case of the edge-case page keeps its position and reasoning in a closed <details>: an
//   address that leads to the case (#case-…) opens it.
// - The language switcher leads to the same page in the other language; the headings' anchors
//   are the same in both, so it keeps the section the reader is at (rules/#x → es/rules/#x).
(function () {
  "use strict";

  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    var details = target.matches("details") ? target : target.querySelector("details");
    if (details && !details.open) {
      details.open = true;
      target.scrollIntoView();
    }
  }

  function keepSection(event) {
    var link = event.target.closest && event.target.closest("a[hreflang]");
    if (!link || !location.hash) return;
    var href = link.getAttribute("href").split("#")[0];
    link.setAttribute("href", href + location.hash);
  }

  document.addEventListener("click", keepSection, true);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter") keepSection(event);
  }, true);
  window.addEventListener("hashchange", openTarget);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", openTarget);
  else openTarget();
})();
