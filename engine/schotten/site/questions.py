"""Questions and answers a page shows, and the same pairs for search engines.

A page asks and answers questions through one function, which renders the visible text and
records each pair beside it: :func:`schotten.site.render.render_page` returns them with the page,
and the page's head turns them into schema.org ``FAQPage`` data (:mod:`schotten.site.head`), so the
structured data can only say what the page says.

In a page, a block of questions is written as Markdown paragraphs, each opening with its question
in bold::

    {% call questions() %}
    **Ma main peut-elle servir de preuve ?** Non : ...

    **Dois-je attendre ?** Non. ...
    {% endcall %}

The verdict tables record their rows whose situation is a question the same way
(:func:`table_questions`).

>>> text = "**Qui gagne ?** Le côté [complété](rules.md#ties) le *premier*."
>>> block, pairs = questions_block(text)
>>> block.splitlines()[0]
'**Qui gagne ?** Le côté [complété](rules.md#ties) le *premier*.'
>>> pairs
(QuestionAnswer(question='Qui gagne ?', answer='Le côté complété le premier.'),)
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from schotten.site import SiteCheckError

_PAIR = re.compile(r"\*\*(?P<question>[^*]+?)\*\*[ \t]*(?P<answer>\S.*)", re.S)
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


def questions_block(markdown: str) -> tuple[str, tuple[QuestionAnswer, ...]]:
    """The block as the page shows it, and its pairs; every paragraph of the block must be a
    question in bold followed by its answer."""
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
    return "\n\n".join(paragraphs) + "\n\n\n", tuple(pairs)


def table_questions(rows: Iterable[tuple[str, str]]) -> tuple[QuestionAnswer, ...]:
    """A verdict table's rows (situation, why) whose situation is a question: the answer is the
    plain-language explanation shown beside it."""
    # Case texts are shown as typed (schotten.site.tables.md_text): only their spaces are read.
    return tuple(
        QuestionAnswer(_flat(situation), _flat(why))
        for situation, why in rows
        if is_question(situation)
    )


def jinja_functions(asked: list[QuestionAnswer]) -> dict[str, Callable[..., str]]:
    """``questions``, for a ``{% call questions() %}`` block in a page of any language: its pairs
    are added to ``asked``, in page order."""

    def questions(caller: Callable[[], str]) -> str:
        block, pairs = questions_block(str(caller()))
        asked.extend(pairs)
        return block

    return {"questions": questions}
