"""A page's Markdown from its source: a Jinja2 template that may only call page functions.

A page is Markdown and calls of page functions with plain values; :func:`render_page` refuses
anything else with the page's name and line. :func:`page_functions` gathers the functions of
every module that gives pages something to say: the published tables (:mod:`.tables`), the
checked facts (:mod:`.facts`), the pictures (:mod:`.pictures`), the widgets, the proofs and the
questions.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import jinja2
from markupsafe import Markup

from schotten.casebook import CaseResult
from schotten.site import (
    SiteCheckError,
    agreement,
    facts,
    pictures,
    play_page,
    proofs,
    questions,
    readback,
    tables,
    widgets,
)
from schotten.site.questions import QuestionAnswer


@dataclass(frozen=True)
class RenderedPage:
    """A page's Markdown and the questions it answers (for its head's structured data)."""

    markdown: str
    questions: tuple[QuestionAnswer, ...]


def render_page(
    source: str,
    lang: str,
    name: str,
    results: Sequence[CaseResult],
    shown: set[str] | None = None,
) -> RenderedPage:
    """One page's Markdown, rendered as a Jinja2 template with the page functions of ``lang``
    (``shown`` collects the published tables the page renders), and the question/answer pairs
    its functions showed, in page order.

    A page is Markdown and calls of page functions with plain values (``{{ example("blue 5,
    blue 6, blue 7", "colour-run") }}``), nothing else: it includes, imports or extends no other
    template, defines no macro, loops over nothing, computes nothing, and prints nothing but
    what page functions return. Anything else, and any error while rendering, is a
    :class:`~schotten.site.SiteCheckError` with the page's name and line."""
    asked: list[QuestionAnswer] = []
    functions = page_functions(lang, results, shown, asked)
    env = jinja2.Environment(
        undefined=jinja2.StrictUndefined,
        # Every function returns Markup; anything else printed on a page is escaped.
        autoescape=True,
        keep_trailing_newline=True,
        finalize=_printable,
    )
    env.globals.clear()  # range, dict, lipsum, ...: a page calls page functions only
    try:
        tree = env.parse(source, name, name)
        _check_page(tree, functions)
        # Named after the page, so that errors point into the page.
        code = env.compile(tree, name, name)
        template = env.template_class.from_code(env, code, env.make_globals(None))
        page = template.render(functions)
    except jinja2.TemplateSyntaxError as exc:
        raise SiteCheckError(f"{name}:{exc.lineno}: ({lang}) {exc.message}") from exc
    except _PageError as exc:
        raise SiteCheckError(f"{name}:{exc.line}: ({lang}) {exc.message}") from exc
    except Exception as exc:  # the page's own doing: say where, never a traceback
        line = _template_line(exc, name)
        where = f"{name}:{line}" if line else name
        raise SiteCheckError(f"{where}: ({lang}) {_said(exc)}") from exc
    # Every formation the page names with its cards must be what those cards make.
    wrong = readback.problems(page, lang)
    if wrong:
        said = "; ".join(f"rendered {p}" for p in wrong)
        raise SiteCheckError(f"{name}: ({lang}) words that do not read back: {said}")
    return RenderedPage(page, tuple(asked))


class _PageError(Exception):
    """What a page holds that pages may not (only inside this module)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


_TAGS: dict[type[jinja2.nodes.Node], str] = {
    jinja2.nodes.Include: "include",
    jinja2.nodes.Import: "import",
    jinja2.nodes.FromImport: "from ... import",
    jinja2.nodes.Extends: "extends",
    jinja2.nodes.Macro: "macro",
    jinja2.nodes.CallBlock: "call",
    jinja2.nodes.Block: "block",
    jinja2.nodes.For: "for",
    jinja2.nodes.If: "if",
    jinja2.nodes.Assign: "set",
    jinja2.nodes.AssignBlock: "set",
    jinja2.nodes.FilterBlock: "filter",
    jinja2.nodes.With: "with",
}
_HOW = "a page holds Markdown and calls of page functions, {{ example(...) }}, only"
# Page functions that take a block of the page's own Markdown, as {% call f() %}...{% endcall %}.
_BLOCK_FUNCTIONS = frozenset({"questions"})


def _check_page(tree: jinja2.nodes.Template, functions: Mapping[str, Any]) -> None:
    _check_body(tree.body, functions, inside_block=False)


def _check_body(
    body: list[jinja2.nodes.Node], functions: Mapping[str, Any], *, inside_block: bool
) -> None:
    for node in body:
        if isinstance(node, jinja2.nodes.CallBlock) and not inside_block:
            _check_block(node, functions)
            continue
        if not isinstance(node, jinja2.nodes.Output):
            tag = _TAGS.get(type(node), type(node).__name__.lower())
            raise _PageError(node.lineno, f"{{% {tag} %}} is not allowed here: {_HOW}")
        for child in node.nodes:
            if not isinstance(child, jinja2.nodes.TemplateData):
                _check_call(child, functions)


def _check_block(node: jinja2.nodes.CallBlock, functions: Mapping[str, Any]) -> None:
    call = node.call
    name = call.node.name if isinstance(call.node, jinja2.nodes.Name) else ""
    blocks = ", ".join(sorted(_BLOCK_FUNCTIONS))
    if name not in _BLOCK_FUNCTIONS or name not in functions:
        raise _PageError(
            node.lineno, f"{{% call %}} takes a block page function ({blocks}) only: {_HOW}"
        )
    if call.args or call.kwargs or call.dyn_args or call.dyn_kwargs or node.args:
        raise _PageError(node.lineno, f"{{% call {name}() %}} takes no arguments")
    _check_body(node.body, functions, inside_block=True)


def _check_call(node: jinja2.nodes.Node, functions: Mapping[str, Any]) -> None:
    if isinstance(node, jinja2.nodes.Name) and node.name not in functions:
        raise _PageError(node.lineno, f"{node.name!r} is not a page function: {_HOW}")
    if isinstance(node, jinja2.nodes.Name):
        raise _PageError(
            node.lineno,
            f"{{{{ {node.name} }}}} prints the page function itself: call it, "
            f"{{{{ {node.name}(...) }}}}",
        )
    if not isinstance(node, jinja2.nodes.Call) or not isinstance(node.node, jinja2.nodes.Name):
        raise _PageError(node.lineno, f"{{{{ ... }}}} computes something: {_HOW}")
    called = node.node.name
    if called not in functions:
        known = ", ".join(sorted(functions))
        raise _PageError(node.lineno, f"{called!r} is not a page function (they are: {known})")
    values = [*node.args, *(k.value for k in node.kwargs)]
    if node.dyn_args is not None or node.dyn_kwargs is not None or not all(map(_plain, values)):
        raise _PageError(
            node.lineno,
            f"{called}(...) takes plain values only: text, numbers, true or false, lists and "
            "mappings of them",
        )


def _plain(node: jinja2.nodes.Node) -> bool:
    if isinstance(node, jinja2.nodes.Const):
        return node.value is None or isinstance(node.value, str | int | float)
    if isinstance(node, jinja2.nodes.Neg | jinja2.nodes.Pos):
        return isinstance(node.node, jinja2.nodes.Const) and isinstance(
            node.node.value, int | float
        )
    if isinstance(node, jinja2.nodes.List | jinja2.nodes.Tuple):
        return all(_plain(item) for item in node.items)
    if isinstance(node, jinja2.nodes.Dict):
        return all(_plain(pair.key) and _plain(pair.value) for pair in node.items)
    return False


def _printable(value: Any) -> Any:
    """What a page prints: text only (page functions return it as Markup)."""
    if not isinstance(value, str):
        raise SiteCheckError(f"the page prints {type(value).__name__} {value!r}, not text")
    return value


def _said(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "a call that never ends (it calls itself again and again)"
    if isinstance(exc, SiteCheckError | jinja2.TemplateError) and str(exc):
        return str(exc)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def page_functions(
    lang: str,
    results: Sequence[CaseResult],
    shown: set[str] | None = None,
    asked: list[QuestionAnswer] | None = None,
) -> dict[str, Callable[..., Markup]]:
    """The functions pages may call in ``lang``: the FAQ's own and those of the other modules
    (``asked`` collects the questions they show)."""
    rendered = shown if shown is not None else set()
    questions_asked = asked if asked is not None else []

    def table(name: str = tables.FAQ) -> Markup:
        rendered.add(name)
        return tables.verdict_table(results, lang, name, questions_asked)

    functions: dict[str, Callable[..., Markup]] = {
        "verdict_table": table,
        "cases_for": partial(tables.cases_for, results, lang),
    }
    given = [
        (m.__name__, m.jinja_functions(lang))
        for m in (facts, pictures, widgets, play_page, proofs, agreement)
    ]
    given.append((questions.__name__, questions.jinja_functions(questions_asked)))
    for module, module_functions in given:
        for fname, function in module_functions.items():
            if fname in functions:
                raise SiteCheckError(f"{module}: page function {fname!r} is defined twice")
            functions[fname] = _trusted(function, fname)
    return functions


def _trusted(function: Callable[..., Any], name: str) -> Callable[..., Markup]:
    """A page function's output is markup by contract: keep autoescape from escaping it (and
    refuse what is not text, which ``Markup`` would print as its ``repr``)."""

    def call(*args: Any, **kwargs: Any) -> Markup:
        value = function(*args, **kwargs)
        if not isinstance(value, str):
            raise SiteCheckError(f"{name}(...) gave {type(value).__name__}, not text")
        return Markup(value)

    call.__name__ = name
    return call


def _template_line(exc: BaseException, name: str) -> int | None:
    """The page line being rendered when ``exc`` was raised (Jinja maps frames to the page)."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == name or frame.filename.endswith(f"/{name}"):
            line = frame.lineno
    return line
