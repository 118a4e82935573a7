"""Questions and answers a page shows, and the same pairs for search engines.

A page asks and answers questions through one function, which renders the visible text and
records each pair beside it, in a marker that the page's head turns into schema.org ``FAQPage``
data (:mod:`schotten.site.head`): the structured data can only say what the page says.

In a page, a block of questions is written as Markdown paragraphs, each opening with its question
in bold::

    {% call questions() %}
    **Ma main peut-elle servir de preuve ?** Non : ...

    **Dois-je attendre ?** Non. ...
    {% endcall %}

The verdict tables record their rows whose situation is a question the same way
(:func:`table_marker`).

>>> block = questions_block("**Qui gagne ?** Le côté [complété](rules.md#ties) le *premier*.")
>>> block.splitlines()[0]
'**Qui gagne ?** Le côté [complété](rules.md#ties) le *premier*.'
>>> read_markers(block)
(QuestionAnswer(question='Qui gagne ?', answer='Le côté complété le premier.'),)
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from schotten.site import SiteCheckError

_PAIR = re.compile(r"\*\*(?P<question>[^*]+?)\*\*[ \t]*(?P<answer>\S.*)", re.S)
_MARKER = re.compile(r"<!-- schotten-questions (?P<data>[A-Za-z0-9+/=]+) -->")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*|\*|__|(?<!\w)_(?=\w)|(?<=\w)_(?!\w))")
_QUESTION_MARK = ("?", "？")


@dataclass(frozen=True)
class QuestionAnswer:
    """One question and its answer, as plain text (what a reader sees of them)."""

    question: str
    answer: str


def is_question(text: str) -> bool:
    """Whether a text asks something (it ends with a question mark)."""
    return text.rstrip().endswith(_QUESTION_MARK)


def plain_text(markdown: str) -> str:
    """The text a reader sees of one paragraph of inline Markdown: links keep their words,
    emphasis marks and character references are read, white space is one space."""
    text = _LINK.sub(r"\1", markdown)
    text = _EMPHASIS.sub("", text)
    return _flat(html.unescape(text))


def _flat(text: str) -> str:
    # Only ASCII white space is collapsed: French no-break spaces are part of the text.
    return " ".join(re.split(r"[ \t\n\r\f\v]+", text.strip(" \t\n\r\f\v")))


def questions_block(markdown: str) -> str:
    """The block as the page shows it, followed by the marker of its pairs; every paragraph of
    the block must be a question in bold followed by its answer."""
    pairs = []
    paragraphs = [p.strip() for p in re.split(r"\n[ \t]*\n", markdown.strip()) if p.strip()]
    for paragraph in paragraphs:
        match = _PAIR.fullmatch(paragraph)
        if match is None or not is_question(match["question"]):
            start = " ".join(paragraph.split())[:60]
            raise SiteCheckError(
                f"questions(): {start!r}... is not a question in bold followed by its answer"
            )
        pairs.append(QuestionAnswer(plain_text(match["question"]), plain_text(match["answer"])))
    if not pairs:
        raise SiteCheckError("questions(): the block asks no question")
    return "\n\n".join(paragraphs) + "\n\n" + marker(pairs) + "\n"


def marker(pairs: Iterable[QuestionAnswer]) -> str:
    """An HTML comment that carries ``pairs`` through Markdown to the page's head (empty when
    there are none)."""
    data = [[p.question, p.answer] for p in pairs]
    if not data:
        return ""
    encoded = base64.b64encode(json.dumps(data, ensure_ascii=False).encode()).decode()
    return f"<!-- schotten-questions {encoded} -->"


def table_marker(rows: Iterable[tuple[str, str]]) -> str:
    """The marker of a verdict table's rows (situation, why) whose situation is a question:
    the answer is the plain-language explanation shown beside it."""
    # Case texts are shown as typed (schotten.site.tables.md_text): only their spaces are read.
    pairs = [
        QuestionAnswer(_flat(situation), _flat(why))
        for situation, why in rows
        if is_question(situation)
    ]
    return f"\n\n{marker(pairs)}\n" if pairs else ""


def read_markers(text: str) -> tuple[QuestionAnswer, ...]:
    """Every pair recorded in ``text`` (Markdown or the HTML made from it), in page order."""
    pairs = []
    for match in _MARKER.finditer(text):
        for question, answer in json.loads(base64.b64decode(match["data"]).decode()):
            pairs.append(QuestionAnswer(str(question), str(answer)))
    return tuple(pairs)


def strip_markers(text: str) -> str:
    """``text`` without its markers (they are for the head, not for readers)."""
    return _MARKER.sub("", text)


def jinja_functions(lang: str) -> dict[str, Callable[..., str]]:
    """``questions``, for a ``{% call questions() %}`` block in a page of any language."""

    def questions(caller: Callable[[], str]) -> str:
        return questions_block(str(caller()))

    return {"questions": questions}
