"""The proofs page: what ``schotten verify`` has proven, read from ``verification/*.json``.

A report names the engine it was made on (a digest of the engine's modules its space depends
on, :func:`schotten.verify.report.space_digest`). The page compares it with the same modules of
the engine building the site and never calls a report a proof of an engine it was not made on: a
report of another engine is shown as such, to be made again.

>>> status_key({"complete": True, "disagreements": [], "engine": {"digest": "x"}}, "x")
'proven'
>>> status_key({"complete": True, "disagreements": [], "engine": {"digest": "x"}}, "y")
'stale'
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from schotten.site import SiteCheckError, labels
from schotten.site.words import format_number
from schotten.verify.report import engine_digest
from schotten.verify.spaces import SPACES

# The site is built from the repository's root (scripts/build, mkdocs): the reports are there.
REPORTS = Path("verification")

NNBSP, NBSP = "\u202f", "\u00a0"

_TEXT: dict[str, dict[str, str]] = {
    "fr": {
        "space": "Ensemble de positions",
        "positions": "Positions",
        "classes": "Classes vérifiées",
        "disagreements": "Désaccords",
        "engine": "Moteur",
        "computed": "Calcul",
        "workers_one": "1\u00a0processus",
        "workers_many": "{count}\u00a0processus en parallèle",
        "state": "État",
        "proven": "Prouvé sur ce moteur",
        "stale": (
            f"Fait sur une autre version du moteur{NBSP}: ne prouve rien du moteur actuel, "
            "à refaire"
        ),
        "partial": "En cours{nbsp}: {done} positions sur {total} vérifiées, sans désaccord",
        "partial_stale": (
            f"Commencé sur une autre version du moteur{NBSP}: ne prouve rien du moteur actuel"
        ),
        "found": "{count} désaccord(s) trouvé(s)",
        "of": "{checked} sur {total}",
        "none": "Aucun rapport de vérification n’est encore publié.",
        "date": "rapport du {date}",
    },
    "es": {
        "space": "Conjunto de posiciones",
        "positions": "Posiciones",
        "classes": "Clases comprobadas",
        "disagreements": "Desacuerdos",
        "engine": "Motor",
        "computed": "Cálculo",
        "workers_one": "1\u00a0proceso",
        "workers_many": "{count}\u00a0procesos en paralelo",
        "state": "Estado",
        "proven": "Demostrado con este motor",
        "stale": (
            "Hecho con otra versión del motor: no demuestra nada del motor actual, hay que "
            "repetirlo"
        ),
        "partial": "En curso: {done} posiciones de {total} comprobadas, sin desacuerdos",
        "partial_stale": "Empezado con otra versión del motor: no demuestra nada del motor actual",
        "found": "{count} desacuerdo(s) encontrado(s)",
        "of": "{checked} de {total}",
        "none": "Todavía no se ha publicado ningún informe de verificación.",
        "date": "informe del {date}",
    },
}

_SPACES: dict[str, dict[str, str]] = {
    "fr": {
        "base-one-stone": (
            f"Jeu de base, une Borne{NBSP}: 3 cartes Clan contre 0, 1 ou 2, rien d’autre en vue"
        ),
        "base-one-stone-complete": (
            f"Jeu de base, une Borne{NBSP}: 3 cartes Clan contre 3, quel que soit le côté "
            "complété le premier"
        ),
        "mud-one-stone": (
            f"Variante tactique, Combat de Boue sur la Borne{NBSP}: 4 cartes Clan contre 0 à 3"
        ),
        "blind-one-stone": (
            f"Variante tactique, Colin-Maillard sur la Borne{NBSP}: 3 cartes Clan contre 0, 1 ou 2"
        ),
        "mud-blind-one-stone": (
            f"Variante tactique, Combat de Boue et Colin-Maillard sur la Borne{NBSP}: "
            "4 cartes Clan contre 0 à 3"
        ),
        "elite-one-stone": (
            f"Variante tactique, une Borne{NBSP}: Troupes d’élite de part et d’autre, visibles "
            "ailleurs ou encore cachées"
        ),
        "sampled": "Positions rencontrées dans des parties aléatoires, plateau entier",
    },
    "es": {
        "base-one-stone": (
            "Juego básico, una piedra: 3 cartas de clan contra 0, 1 o 2, nada más a la vista"
        ),
        "base-one-stone-complete": (
            "Juego básico, una piedra: 3 cartas de clan contra 3, sea cual sea el lado "
            "completado primero"
        ),
        "mud-one-stone": (
            "Variante táctica, Combate en el barro en la piedra: 4 cartas de clan contra 0 a 3"
        ),
        "blind-one-stone": (
            "Variante táctica, Gallina ciega en la piedra: 3 cartas de clan contra 0, 1 o 2"
        ),
        "mud-blind-one-stone": (
            "Variante táctica, Combate en el barro y Gallina ciega en la piedra: "
            "4 cartas de clan contra 0 a 3"
        ),
        "elite-one-stone": (
            "Variante táctica, una piedra: Tropas de élite en cualquiera de los lados, a la "
            "vista en otra parte o todavía ocultas"
        ),
        "sampled": "Posiciones surgidas en partidas aleatorias, tablero completo",
    },
}


def load_reports(folder: Path = REPORTS) -> list[dict[str, Any]]:
    """The reports of the folder, in the order of the spaces' list."""
    reports: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.json")):
        try:
            report = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise SiteCheckError(f"{path}: not a readable verification report ({exc})") from exc
        if not isinstance(report, dict) or report.get("space") not in SPACES:
            raise SiteCheckError(f"{path}: not a verification report of a known space")
        reports.append(report)
    order = list(SPACES)
    return sorted(reports, key=lambda r: order.index(r["space"]))


def status_key(report: dict[str, Any], digest: str) -> str:
    """``proven``, ``stale``, ``found``, ``partial`` or ``partial_stale``."""
    same_engine = report["engine"]["digest"] == digest
    if report["disagreements"]:
        return "found"
    if report["complete"]:
        return "proven" if same_engine else "stale"
    return "partial" if same_engine else "partial_stale"


def proof_table(lang: str, folder: Path = REPORTS) -> str:
    """The reports as a Markdown table in ``lang`` (a sentence when there is none)."""
    text = _TEXT[lang]
    reports = load_reports(folder)
    if not reports:
        return _text(text["none"])
    heads = ("space", "positions", "classes", "disagreements", "engine", "computed", "state")
    colon = _text(labels(lang)["punctuation"]["colon"])
    rows = []
    # Each set of modules read once: the six spaces of one stone share theirs.
    modules_of = {report["space"]: SPACES[report["space"]].rule_modules for report in reports}
    digests = {modules: engine_digest(modules) for modules in set(modules_of.values())}

    def number(n: int) -> str:
        return format_number(int(n), lang)

    for report in reports:
        key = status_key(report, digests[modules_of[report["space"]]])
        total = report["positions_in_space"]
        checked = report["positions_checked"]
        positions = (
            number(checked)
            if total is None or checked == total
            else text["of"].format(checked=number(checked), total=number(total))
        )
        state = text[key].format(
            nbsp=NBSP,
            done=number(checked),
            total=number(total or checked),
            count=number(len(report["disagreements"])),
        )
        engine = report["engine"]
        date = text["date"].format(date=long_date(report["date"], lang))
        cells = [
            _text(_SPACES[lang][report["space"]]),
            positions,
            number(report["classes_checked"]),
            number(len(report["disagreements"])),
            f"{_text(engine['version'])} <code>{_text(engine['digest'])}</code><br>{_text(date)}",
            _text(_computed(report, lang)),
            f'<span class="proof-{key}">{_text(state)}</span>',
        ]
        # On a phone each row is a block: every value but the first says its column's name.
        cells[1:] = [
            f'<span class="proof-label">{_text(text[h])}{colon}</span>{cell}'
            for h, cell in zip(heads[1:], cells[1:], strict=True)
        ]
        rows.append("| " + " | ".join(c.replace("|", "&#124;") for c in cells) + " |")
    head = "| " + " | ".join(_text(text[h]) for h in heads) + " |"
    rule = "|" + "---|" * len(heads)
    return "\n".join(["", head, rule, *rows, ""])


def _computed(report: dict[str, Any], lang: str) -> str:
    """How long the report's runs took (wall time) and on how many workers."""
    total = round(report["wall_seconds"])
    hours, minutes, seconds = total // 3600, total // 60 % 60, total % 60
    parts = [f"{hours}{NBSP}h"] if hours else []
    parts += [f"{minutes}{NBSP}min"] if hours or minutes else []
    parts.append(f"{seconds}{NBSP}s")
    workers = report["workers"]
    text = _TEXT[lang]
    many = text["workers_many"].format(count=format_number(workers, lang))
    return f"{NBSP.join(parts)}, {text['workers_one'] if workers == 1 else many}"


def _text(value: str) -> str:
    return html.escape(value, quote=False)


_MONTHS = {
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "es": (
        "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre"
    ),
}


def long_date(iso: str, lang: str) -> str:
    """``2026-11-30T18:49:02Z`` as ``30 novembre 2026`` / ``30 de noviembre de 2026``."""
    year, month, day = (int(part) for part in iso[:10].split("-"))
    name = _MONTHS[lang].split()[month - 1]
    return f"{day} {name} {year}" if lang == "fr" else f"{day} de {name} de {year}"


def jinja_functions(lang: str) -> dict[str, Callable[..., str]]:
    """The page functions of :mod:`schotten.site.proofs`, rendering in ``lang``."""
    labels(lang)  # an unknown language fails here

    def table() -> str:
        return proof_table(lang)

    return {"proof_table": table}
