"""``scripts/serve``: every refusal shown every time, in the terminal and in the browser.

MkDocs logs a build error through its build logger, on which ``mkdocs serve`` puts a filter that
drops any message it has already shown: an editor going back and forth on one case saw the
refusal once, then only "Aborted with a BuildError!", and the browser kept the last good page.
:func:`watch_refusals` (called by the MkDocs hook's ``on_serve``) wraps the server's rebuild:

- a refusal is logged by this module's own logger, which has no such filter, every time;
- the pages being served get the refusal at their top (a banner with the message), and the
  browsers are told to reload, so the page open in the browser shows it while it lasts; the next
  build that passes rewrites every page, and the banner is gone.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.exceptions import Abort, BuildError

from schotten import labels
from schotten.casebook import hints

# The label files are editor data: a change to one rebuilds, with the labels read again.
LOCALES = Path(labels.__file__).parent / "locales"

# Under "mkdocs": shown by its handler; the duplicate filter is on its build logger only.
log = logging.getLogger("mkdocs.hooks.schotten.serve")
BANNER_ID = "schotten-refusal"
_STYLE = (
    "position:relative;z-index:1000;margin:0;padding:1rem;border:0.25rem solid #b00020;"
    "background:#fff4f4;color:#5c0010;font:0.9rem/1.4 monospace;white-space:pre-wrap;"
    "overflow-wrap:anywhere"
)


def refusal_banner(message: str) -> str:
    """The refusal as the top of a page: an alert that screen readers announce."""
    return (
        f'<div id="{BANNER_ID}" role="alert" style="{_STYLE}"><strong>schotten: the site is '
        f"refused; fix this and save:</strong>\n{html.escape(message)}</div>"
    )


def show_refusal(site_dir: Path, message: str) -> int:
    """Put the refusal at the top of every page of ``site_dir`` (replacing an earlier one);
    returns how many pages show it."""
    banner = refusal_banner(message)
    shown = 0
    for page in sorted(site_dir.rglob("*.html")):
        try:
            text = page.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        start = text.find(f'<div id="{BANNER_ID}"')
        if start >= 0:
            end = text.index("</div>", start) + len("</div>")
            text = text[:start] + text[end:]
        body = text.find("<body")
        at = text.find(">", body) + 1 if body >= 0 else 0
        page.write_text(text[:at] + banner + text[at:], encoding="utf-8")
        shown += 1
    return shown


def watch_refusals(server: Any, message_of: Callable[[], str | None]) -> Any:
    """Wrap ``server.builder`` (MkDocs' ``LiveReloadServer``) as the module says.

    ``message_of()`` gives the last refusal of the build that failed (the gate's own message;
    ``None`` falls back to the exception's text).
    """
    build = server.builder
    server.watch(str(LOCALES))

    def checked_build(*args: Any, **kwargs: Any) -> None:
        labels.labels.cache_clear()  # read once per build: an edited label file counts
        hints.clear_names()
        try:
            build(*args, **kwargs)
        except (Abort, BuildError) as exc:
            message = message_of() or str(exc)
            log.error("%s", message)
            pages = show_refusal(Path(server.root), message)
            log.error("schotten: refused; the %d pages served show why until it is fixed", pages)
            # No exception: the server tells the browsers to reload, and they show the refusal.

    server.builder = checked_build
    return server
