"""The gate given pages a careless or hostile editor writes: a page is Markdown and calls of page
functions with plain values, nothing else, and everything else is refused with the page's file
and line, never published, never a traceback. Page files are read as regular files within their
limit: a FIFO or a link to a device under ``site_src/`` is refused before MkDocs opens it.

Fuzzed pages run a few hundred examples; a long campaign:
``SCHOTTEN_FUZZ_EXAMPLES=20000 .venv/bin/pytest tests/test_hostile_gate.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strength import fuzz_examples
from test_site import _assert_untouched, _old_site, minimal_project

from schotten.casebook import CaseResult
from schotten.site import SiteCheckError, gate, render
from schotten.site.questions import QuestionAnswer

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = fuzz_examples(200)


@pytest.fixture(scope="module")
def entries() -> tuple[CaseResult, ...]:
    problems: list[str] = []
    found = gate._published_results(ROOT / "cases", problems, ROOT)
    assert problems == [] and any("pass" in r.case.rules for r in found)
    return found


def refusal(entries: tuple[CaseResult, ...], page: str, lang: str = "fr") -> str:
    """The gate's message for ``page``, which it must refuse with the page's name and a line."""
    name = "rules.md" if lang == "fr" else "rules.es.md"
    with pytest.raises(SiteCheckError) as info:
        render.render_page(page, lang, name, entries)
    message = str(info.value)
    assert re.match(rf"{re.escape(name)}:\d+: \({lang}\) ", message), message
    assert "Traceback" not in message and " at 0x" not in message
    return message


def line_of(message: str) -> int:
    return int(message.split(":")[1])


def test_a_page_that_calls_page_functions_renders(entries: tuple[CaseResult, ...]) -> None:
    page = '# Règles\n\n{{ cases_for("pass") }}\n\n{{ ladder() }}\n'
    text = render.render_page(page, "fr", "rules.md", entries).markdown
    assert "edge-cases.md#case-" in text and "Suite couleur > Brelan" in text


@pytest.mark.parametrize(
    "call",
    [
        'cases_for("pass", "no-such-rule")',
        'cases_for("no-such-rule")',
        'cases_for("PASS")',
        "cases_for(4)",
    ],
)
def test_an_unknown_rule_id_is_refused_even_beside_a_known_one(
    entries: tuple[CaseResult, ...], call: str
) -> None:
    message = refusal(entries, f"# R\n\n{{{{ {call} }}}}\n")
    assert "not a rule id" in message and line_of(message) == 3


@pytest.mark.parametrize("name", ["example", "cases_for", "verdict_table", "fact", "ladder"])
def test_a_page_function_printed_uncalled_is_refused(
    entries: tuple[CaseResult, ...], name: str
) -> None:
    message = refusal(entries, f"Voir\n{{{{ {name} }}}}\n")
    assert f"{{{{ {name}(...) }}}}" in message and line_of(message) == 2


@pytest.mark.parametrize(
    ("statement", "tag"),
    [
        ('{% include "x.md" %}', "include"),
        ('{% include "rules.md" %}', "include"),
        ('{% import "x.md" as x %}', "import"),
        ('{% from "x.md" import y %}', "from"),
        ('{% extends "base.md" %}', "extends"),
        ("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", "macro"),
        ("{% for i in [1, 2] %}x{% endfor %}", "for"),
        ("{% set x = 1 %}", "set"),
        ("{% if true %}x{% endif %}", "if"),
        ("{% filter upper %}x{% endfilter %}", "filter"),
        ("{% block b %}x{% endblock %}", "block"),
    ],
)
def test_a_page_includes_imports_extends_and_defines_nothing(
    entries: tuple[CaseResult, ...], statement: str, tag: str
) -> None:
    message = refusal(entries, f"# R\n\ntexte\n{statement}\n")
    assert f"{{% {tag}" in message and line_of(message) == 4


def test_a_block_of_questions_is_the_one_call_block_a_page_may_hold(
    entries: tuple[CaseResult, ...],
) -> None:
    page = "# R\n\n{% call questions() %}\n**La main compte-t-elle\u202f?** Non.\n{% endcall %}\n"
    rendered = render.render_page(page, "fr", "rules.md", entries)
    assert "**La main compte-t-elle\u202f?** Non." in rendered.markdown
    assert rendered.questions == (QuestionAnswer("La main compte-t-elle\u202f?", "Non."),)
    assert "<!--" not in rendered.markdown  # the pairs travel beside the page, not in it


@pytest.mark.parametrize(
    "statement",
    [
        "{% call example() %}x{% endcall %}",
        "{% call questions('x') %}x{% endcall %}",
        "{% call(y) questions() %}x{% endcall %}",
        "{% call questions() %}{% call questions() %}x{% endcall %}{% endcall %}",
        "{% call questions() %}{% set x = 1 %}{% endcall %}",
        "{% call questions() %}{{ 1/0 }}{% endcall %}",
    ],
)
def test_a_call_block_other_than_plain_questions_is_refused(
    entries: tuple[CaseResult, ...], statement: str
) -> None:
    message = refusal(entries, f"# R\n\ntexte\n{statement}\n")
    assert line_of(message) == 4, message


def test_a_mapping_given_to_a_page_function_holds_plain_values_only(
    entries: tuple[CaseResult, ...],
) -> None:
    message = refusal(entries, '# R\n\n{{ fact("clan-cards", {1: x}) }}\n')
    assert "plain values only" in message


@pytest.mark.parametrize(
    "expression",
    [
        "1/0",
        "1 + 1",
        "'x' * 1000000000",
        "range(10)",
        "lipsum()",
        "example.__globals__",
        "cases_for('pass') ~ 'x'",
        "true",
        "none",
        "[1, 2]",
        "fact('clan-cards', 27 * 2)",
        "example(*['blue 5'])",
        "example(cards='x' ~ 'y', kind='run')",
        "undefined_name",
        "example('blue 5, blue 6, blue 7', 'colour-run') | upper",
    ],
)
def test_a_page_computes_nothing_and_prints_nothing_but_calls(
    entries: tuple[CaseResult, ...], expression: str
) -> None:
    message = refusal(entries, f"# R\n\n{{{{ {expression} }}}}\n")
    assert line_of(message) == 3, message


def test_an_error_inside_a_page_function_names_the_page_and_line(
    entries: tuple[CaseResult, ...],
) -> None:
    message = refusal(entries, '# R\n\n\n{{ example("blue 5", "colour-run", total="x") }}\n')
    assert line_of(message) == 4


def test_a_page_function_that_gives_no_text_is_refused(
    entries: tuple[CaseResult, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    from schotten.site import facts

    real = facts.jinja_functions

    def broken(lang: str) -> dict[str, object]:
        return {**real(lang), "ladder": lambda mud=False: None}

    monkeypatch.setattr(facts, "jinja_functions", broken)
    message = refusal(entries, "# R\n\n{{ ladder() }}\n")
    assert "ladder(...) gave NoneType, not text" in message


# -- fuzzed pages --------------------------------------------------------------------------------

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
PIECES = [
    "# Titre\n", "texte ", "\n", "{{ ", " }}", "{% ", " %}", "{#", "#}", "(", ")", "[", "]", ",",
    "=", "'", '"', "|", "~", "*", "/", "-", ".", "__class__", "example", "cases_for", "fact",
    "ladder", "rarer", "verdict_table", "verdict_details", "include", "import", "extends",
    "macro", "endmacro", "for", "in", "endfor", "set", "raw", "endraw", "true", "none", "1",
    "0", "-3", "1e400", "'pass'", "'no-such-rule'", "'faq'", "'blue 5, blue 6, blue 7'",
    "'colour-run'", "'clan-cards'", "54", "mud=true", "range(99)", "self", "caller", "loop",
    "namespace", "\x00", "\u202f", "é",
]  # fmt: skip


NAMES = ["example", "cases_for", "fact", "ladder", "rarer", "verdict_table", "verdict_details",
         "range", "lipsum", "self", "loop", "x"]  # fmt: skip
LITERALS = ["'pass'", "'no-such-rule'", "'faq'", "'blue 5, blue 6, blue 7'", "'colour-run'",
            "'clan-cards'", "54", "-3", "1e400", "true", "none", "[]", "''"]  # fmt: skip
EXPRESSIONS = st.recursive(
    st.sampled_from(NAMES + LITERALS),
    lambda inner: st.one_of(
        st.builds(
            "{}({})".format, st.sampled_from(NAMES), st.lists(inner, max_size=3).map(", ".join)
        ),
        st.builds("{} {} {}".format, inner, st.sampled_from(["+", "/", "*", "~", "|"]), inner),
        st.builds("{}.{}".format, inner, st.sampled_from(["__class__", "upper", "x"])),
        st.builds("[{}]".format, st.lists(inner, max_size=3).map(", ".join)),
        st.builds("mud={}".format, inner),
    ),
    max_leaves=8,
)
STATEMENTS = st.one_of(
    EXPRESSIONS.map("{{{{ {} }}}}".format),
    st.sampled_from(
        ["include", "import", "extends", "set x =", "for x in", "if", "macro m()"]
    ).flatmap(lambda tag: EXPRESSIONS.map(lambda e: f"{{% {tag} {e} %}}")),
)


@FUZZ
@given(st.lists(st.sampled_from(PIECES) | STATEMENTS, max_size=12), st.sampled_from(["fr", "es"]))
def test_any_page_renders_or_is_refused_with_its_line(
    entries: tuple[CaseResult, ...], pieces: list[str], lang: str
) -> None:
    page = "".join(pieces)
    name = "p.md" if lang == "fr" else "p.es.md"
    try:
        text = render.render_page(page, lang, name, entries).markdown
    except SiteCheckError as exc:
        message = str(exc)
        assert message.startswith(f"{name}:") and f"({lang})" in message, message
        assert " at 0x" not in message and len(message) < 5000
        return
    assert isinstance(text, str) and " at 0x" not in text and "<function" not in text


# -- page files ----------------------------------------------------------------------------------


def test_special_files_in_the_page_folder_are_refused_unread(tmp_path: Path) -> None:
    docs = tmp_path / "site_src"
    (docs / "assets").mkdir(parents=True)
    (docs / "index.md").write_text("# A\n", encoding="utf-8")
    (docs / "index.es.md").write_text("# A\n", encoding="utf-8")
    os.mkfifo(docs / "pipe.md")
    os.mkfifo(docs / "assets" / "style.css")
    (docs / "zero.md").symlink_to("/dev/zero")
    (docs / "gone.md").symlink_to(docs / "nowhere.md")
    os.mkfifo(docs / ".hidden")  # not the site's: MkDocs leaves hidden files out
    with pytest.raises(SiteCheckError) as info:
        gate.prepare(docs, tmp_path / "cases", display_root=tmp_path)
    message = str(info.value)
    assert "site_src/pipe.md: a FIFO, not a regular file" in message
    assert "site_src/assets/style.css: a FIFO, not a regular file" in message
    assert "site_src/zero.md: a character device, not a regular file" in message
    assert "site_src/gone.md: a link to nothing" in message
    assert ".hidden" not in message


def test_a_page_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    page = tmp_path / "rules.md"
    with page.open("wb") as handle:
        handle.truncate(gate._MAX_HASHED_BYTES + 1)
    with pytest.raises(SiteCheckError, match=r"^rules\.md:1:1: .*at most"):
        gate.read_page(page, tmp_path)


def _build(project: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build`` in a child process with a deadline: a hang fails instead of waiting."""
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    env["NO_MKDOCS_2_WARNING"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


def test_a_fifo_and_a_link_to_a_device_refuse_the_build_and_keep_the_site(
    tmp_path: Path,
) -> None:
    project = minimal_project(tmp_path / "project")
    os.mkfifo(project / "site_src" / "notes.md")
    (project / "site_src" / "zero.es.md").symlink_to("/dev/zero")
    old = _old_site(tmp_path / "old-site")
    run = _build(project, old)
    assert run.returncode == 1
    assert "site_src/notes.md: a FIFO, not a regular file" in run.stderr
    assert "site_src/zero.es.md: a character device, not a regular file" in run.stderr
    _assert_untouched(old)


def test_a_page_that_includes_another_refuses_the_build_and_keeps_the_site(
    tmp_path: Path,
) -> None:
    project = minimal_project(tmp_path / "project")
    index = project / "site_src" / "index.es.md"
    index.write_text(
        index.read_text(encoding="utf-8") + '\n{% include "index.md" %}\n{{ 1/0 }}\n', "utf-8"
    )
    old = _old_site(tmp_path / "old-site")
    run = _build(project, old)
    assert run.returncode == 1
    assert re.search(r"site_src/index\.es\.md:\d+: \(es\) \{% include %\}", run.stderr)
    assert "Traceback" not in run.stderr
    _assert_untouched(old)
