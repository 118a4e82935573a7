"""The proofs page's section on other engines: who agrees with this one on the conformance
suite (the table of ``conformance/engines.json``, which ``schotten conformance agree`` fills
from run reports) and the link to the suite's archive, written into the site by the plugin.

Every count the section states is read from those files: the engines from the table, the
questions from the suite's manifest.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

from schotten.conformance import suite
from schotten.conformance.agreement import TABLE_FILE, Row, read_table
from schotten.conformance.archive import archive_bytes, archive_name
from schotten.errors import SchottenError
from schotten.site import SiteCheckError, labels
from schotten.site.head import page_path, relative
from schotten.site.proofs import long_date
from schotten.site.words import format_number

# The site is built from the repository's root (scripts/build, mkdocs): the suite is there.
SUITE = Path("conformance")
PAGE = "proofs"  # the page that shows the section


def engine_table(lang: str, folder: Path = SUITE) -> str:
    """The engines run through the suite, as a sentence that counts them and a Markdown table."""
    words = labels(lang)["conformance"]
    try:
        rows = read_table(folder / TABLE_FILE)
    except SchottenError as error:
        raise SiteCheckError(str(error)) from None
    if not rows:
        return _text(words["none"])
    count = (
        words["count_one"]
        if len(rows) == 1
        else words["count_many"].format(count=format_number(len(rows), lang))
    )
    heads = ("engine", "version", "declares", "agreement", "date")
    lines = [
        _text(count),
        "",
        "| " + " | ".join(_text(words[h]) for h in heads) + " |",
        "|" + "---|" * len(heads),
    ]
    for row in rows:
        cells = [
            _text(row.engine),
            _text(row.version),
            _declares(row, lang),
            _agreement(row, lang),
            _text(long_date(row.date, lang)),
        ]
        lines.append("| " + " | ".join(c.replace("|", "&#124;") for c in cells) + " |")
    return "\n".join(["", *lines, ""])


def archive_link(lang: str, folder: Path = SUITE) -> str:
    """The sentence that links the suite's archive (at the site's root), with its count of
    questions."""
    try:
        manifest = suite.manifest(folder)
        kinds = suite.kinds(folder)
    except SchottenError as error:
        raise SiteCheckError(str(error)) from None
    vectors = sum(int(entry.get("vectors", 0)) for entry in kinds.values())
    name = archive_name(manifest)
    href = relative(page_path(PAGE, lang), name)
    link = f'<a href="{html.escape(href)}" download><code>{html.escape(name)}</code></a>'
    words = labels(lang)
    colon = _text(words["punctuation"]["colon"])
    return _text(words["conformance"]["archive"]).format(
        colon=colon, link=link, vectors=format_number(vectors, lang)
    )


def write_archive(site: Path, folder: Path = SUITE) -> Path | None:
    """Write the suite's archive at the root of the built site; its path. A project without a
    suite (a copy that keeps only some pages) has none: ``None``, and a page that links it fails
    its build in :func:`archive_link`."""
    if not (folder / suite.MANIFEST).exists():
        return None
    try:
        name = archive_name(suite.manifest(folder))
    except SchottenError as error:
        raise SiteCheckError(str(error)) from None
    target = site / name
    target.write_bytes(archive_bytes(folder, name.removesuffix(".zip")))
    return target


def _declares(row: Row, lang: str) -> str:
    words = labels(lang)
    conformance = words["conformance"]
    colon = words["punctuation"]["colon"]
    joined = words["words"]["and"]
    parts = [
        joined.join(conformance["variants"][v] for v in row.variants),
        ", ".join(conformance["kinds"][k] for k in row.kinds_declared),
    ]
    if row.claims in conformance["claims_level"]:
        parts.append(conformance["claims_level"][row.claims].format(colon=colon))
    return "<br>".join(_text(part) for part in parts)


def _agreement(row: Row, lang: str) -> str:
    conformance = labels(lang)["conformance"]
    colon = labels(lang)["punctuation"]["colon"]
    lines = [
        conformance["kinds"][k.kind]
        + colon
        + conformance["of"].format(
            agreed=format_number(k.agreed, lang), asked=format_number(k.asked, lang)
        )
        for k in row.kinds
        if k.asked
    ]
    return "<br>".join(_text(line) for line in lines)


def _text(value: str) -> str:
    return html.escape(value, quote=False)


def jinja_functions(lang: str) -> dict[str, Callable[..., str]]:
    """The page functions of :mod:`schotten.site.agreement`, rendering in ``lang``."""
    labels(lang)  # an unknown language fails here

    def table() -> str:
        return engine_table(lang)

    def archive() -> str:
        return archive_link(lang)

    return {"engine_table": table, "suite_archive": archive}
