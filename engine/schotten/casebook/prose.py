"""Checks of a case's texts (``situation`` and ``why``), run wherever an editor works: ``schotten
check``, ``explain``, ``approve`` and the site build.

Each problem is a :class:`CaseError` at the text's line, saying what to write instead:

- a text cut by YAML: `` #`` inside an unquoted text starts a comment, so the rest of the text is
  silently dropped (found in the file's source, since the loaded text no longer holds it);
- a text in the wrong language: the Spanish text is the French one, or any text whose words are
  clearly the other language's (:func:`language_of`, on the case's own words);
- a term of the game written otherwise than the site's labels write it (``Póquer`` for ``Póker``,
  ``Comodin`` for ``Comodín``): :func:`term_problems`;
- French spacing faults, naming the character to type and how to type it in YAML.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from functools import cache

import yaml

from schotten.casebook.errors import CaseError
from schotten.casebook.loader import find_node
from schotten.casebook.model import Case
from schotten.labels import labels
from schotten.typography import spacing_faults

TEXT_FIELDS = ("situation", "why")
LANGUAGE_NAMES = {"fr": "French", "es": "Spanish"}
# The label groups whose entries are terms of the game, written as the site writes them.
_TERM_GROUPS = ("tactics", "formations", "tactic_kinds")


# Words of one language that the other does not use (articles, pronouns, small verbs), and its
# own letters: enough to tell French from Spanish on a sentence or two.
def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_MARKERS = {
    "fr": _words(
        "le les des du une et est ne pas qui ton ta tes sa ses il elle avec sur dans pour ce "
        "cette au aux on mais donc plus peut sont lui leur ou même déjà encore rien contre sous "
        "petite trois quatre seul reste"
    ),
    "es": _words(
        "el los las del una y es no tus sus con para por lo al pero más puede está hay ya "
        "sigue tiene aunque cuando como sin todavía nada su contra frente solo queda tres "
        "cuatro sigue"
    ),
}
_LETTERS = {"fr": set("èêàùçœûîôë"), "es": set("áíóúñ¿¡")}
_ELISION = re.compile(r"\b(?:l|d|n|qu|j|s|c)['’]\w", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_COMMENT_AFTER = re.compile(r"[ \t]+#")


def text_problems(case: Case) -> list[CaseError]:
    """Every problem of the case's texts (see the module), in file order."""
    errors: list[CaseError] = []
    for name in TEXT_FIELDS:
        texts: Mapping[str, str] = getattr(case, name)
        for lang, text in texts.items():
            key_path = (name, lang)
            errors += _cut_by_comment(case, key_path)
            errors += [_at(case, key_path, m) for m in language_problems(texts, lang)]
            errors += [_at(case, key_path, m) for m in term_problems(str(text), lang)]
            if lang == "fr":
                errors += [_at(case, key_path, m) for m in french_spacing_problems(str(text))]
    return sorted(errors, key=lambda e: (e.line, e.column))


def _at(case: Case, key_path: tuple[str, str], message: str) -> CaseError:
    return CaseError(
        case.path, case.line_of(*key_path), case.column_of(*key_path), key_path, message
    )


def _cut_by_comment(case: Case, key_path: tuple[str, str]) -> list[CaseError]:
    doc = case.document
    if doc is None or doc.root is None:
        return []
    node = find_node(doc.root, key_path, keys=doc.keys)
    if not isinstance(node, yaml.ScalarNode) or node.style is not None:
        return []  # quoted: a # is part of the text
    end = node.end_mark.index
    line_end = doc.text.find("\n", end)
    rest = doc.text[end : len(doc.text) if line_end < 0 else line_end]
    if not _COMMENT_AFTER.match(rest):
        return []
    lost = rest.lstrip(" \t")
    shown = lost if len(lost) <= 30 else lost[:30] + "…"
    return [
        CaseError(
            case.path,
            node.end_mark.line + 1,
            node.end_mark.column + 1 + (len(rest) - len(lost)),
            key_path,
            f'the text stops before "{shown}": in YAML, " #" starts a comment, so the rest is '
            "dropped; put the whole text in double quotes",
        )
    ]


# -- languages ---------------------------------------------------------------------------------


def language_of(text: str) -> str | None:
    """``fr`` or ``es`` when the text's words clearly belong to one language, else ``None``.

    >>> language_of("Ta main est cachée, donc elle ne prouve rien.")
    'fr'
    >>> language_of("Tu mano está oculta, así que no prueba nada.")
    'es'
    >>> language_of("Banshee") is None
    True
    """
    scores = language_scores(text)
    best = max(scores, key=lambda lang: scores[lang])
    other = min(scores, key=lambda lang: scores[lang])
    if scores[best] >= 2 and scores[best] >= 3 * max(scores[other], 1) - 1 and best != other:
        return best
    return None


def language_scores(text: str) -> dict[str, int]:
    """How many words and letters of ``text`` only French, or only Spanish, uses."""
    words = [w.lower() for w in _WORD.findall(text)]
    scores = {lang: sum(1 for w in words if w in markers) for lang, markers in _MARKERS.items()}
    scores["fr"] += len(_ELISION.findall(text))
    for lang, letters in _LETTERS.items():
        scores[lang] += sum(1 for c in text.lower() if c in letters)
    return scores


def language_problems(texts: Mapping[str, str], lang: str) -> list[str]:
    """The text of ``lang`` is another language's text, or reads as another language."""
    text = str(texts[lang] or "")
    name = LANGUAGE_NAMES.get(lang, lang)
    for other, other_text in texts.items():
        same = other != lang and lang != "fr" and str(other_text).strip() == text.strip()
        if same and len(_WORD.findall(text)) >= 2:
            return [
                f"the {name} text is the {LANGUAGE_NAMES.get(other, other)} one, word for "
                f"word: write it in {name}"
            ]
    found = language_of(text)
    if found is not None and found != lang and lang in LANGUAGE_NAMES:
        return [
            f"this text reads as {LANGUAGE_NAMES[found]}, not {name}: the `{lang}` text is "
            f"written in {name}"
        ]
    return []


# -- terms -------------------------------------------------------------------------------------


def _fold(word: str) -> str:
    """A word without accents or case, and with the spellings of one sound made one (``qu`` and
    ``k``), so that ``Póquer`` and ``Póker`` compare equal."""
    plain = "".join(
        c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c)
    )
    return re.sub(r"c(?=[aou])", "k", plain.replace("qu", "k"))


@cache
def _terms(lang: str) -> dict[str, tuple[str, str]]:
    """The site's terms of ``lang`` by their folded spelling: (term, label key)."""
    terms: dict[str, tuple[str, str]] = {}
    catalogue = labels(lang)
    for group in _TERM_GROUPS:
        for key, term in catalogue.get(group, {}).items():
            for word in _WORD.findall(str(term)):
                if len(word) >= 4:  # short words ("de", "en", "el") are not terms
                    terms.setdefault(_fold(word), (word, f"{group}.{key}"))
    return terms


def term_problems(text: str, lang: str) -> list[str]:
    """Words that are a term of the site spelt another way (``Comodin`` for ``Comodín``).

    >>> term_problems("Tu Póquer de nueves gana; el Comodin no.", "es")
    ['"Póquer" is written "Póker" on the site (label formations.same-value-4)', \
'"Comodin" is written "Comodín" on the site (label tactics.joker)']
    """
    if lang not in LANGUAGE_NAMES:
        return []
    terms = _terms(lang)
    problems = []
    for word in dict.fromkeys(_WORD.findall(text)):
        found = terms.get(_fold(word))
        if found is not None and word.lower() != found[0].lower():
            problems.append(f'"{word}" is written "{found[0]}" on the site (label {found[1]})')
    return problems


# -- French spacing ----------------------------------------------------------------------------

_SPACES = {
    ";": ("a narrow no-break space", "U+202F", "\\u202f"),
    "?": ("a narrow no-break space", "U+202F", "\\u202f"),
    "!": ("a narrow no-break space", "U+202F", "\\u202f"),
    ":": ("a no-break space", "U+00A0", "\\u00a0"),
    "«": ("a no-break space", "U+00A0", "\\u00a0"),
    "»": ("a no-break space", "U+00A0", "\\u00a0"),
}
_FAULT = re.compile(r'(?P<what>.*?) "(?P<mark>.)" in "(?P<around>.*)"', re.DOTALL)


def french_spacing_problems(text: str) -> list[str]:
    """Each French spacing fault of ``text``, with the character to type and how, in YAML.

    >>> print(french_spacing_problems("Borne 5 ; sa Suite")[0])
    ordinary space before ";" in "rne 5 ; sa ": French puts a narrow no-break space (U+202F) \
before ";": in YAML, write the text in double quotes with "\\u202f" in place of the space \
("Borne 5\\u202f; ..."), or type the character itself
    """
    problems = []
    for fault in spacing_faults(text):
        match = _FAULT.fullmatch(fault)
        if match is None:  # pragma: no cover - spacing_faults words every fault this way
            problems.append(fault)
            continue
        mark = match["mark"]
        name, code, escape = _SPACES[mark]
        where = "after" if mark == "«" else "before"
        example = f'"«{escape}texte{escape}»"' if mark in "«»" else f'"Borne 5{escape}{mark} ..."'
        place = "in place of the space" if "ordinary" in match["what"] else "before the mark"
        problems.append(
            f'{fault}: French puts {name} ({code}) {where} "{mark}": in YAML, write the text in '
            f'double quotes with "{escape}" {place} ({example}), or type the character itself'
        )
    return problems


def all_text_problems(cases: Iterator[Case] | list[Case]) -> list[CaseError]:
    """:func:`text_problems` of every case."""
    return [error for case in cases for error in text_problems(case)]
