"""Every mistake an editor made in the review of the casebook gets a message in the editor's words:
where, what is wrong and what to write instead; never PyYAML's parser state, ``$:``, "mapping"
or "None"."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from schotten.casebook.files import case_id_problem
from schotten.casebook.folder import load_folder
from schotten.cli import EXIT_FAILED, EXIT_OK, main
from schotten.site import SiteCheckError, gate

ROOT = Path(__file__).resolve().parents[1]

CLAIM = """\
situation:
  fr: Trois Bornes voisines
  es: Tres piedras contiguas
why:
  fr: la partie continue
  es: la partida sigue
source: RULES.md, Claims
rule: [claim-proof]
variant: tactical
stones:
  1:
    you: [red 1, red 2, red 3]
    opponent: [blue 1]
  2:
    you: [green 5]
  3:
    opponent: [purple 8, purple 9]
hands:
  you: [green 4]
claim: [1]
"""
PLAY_ON = CLAIM.replace("hands:\n", "hands:\n  opponent: [yellow 7]\n").replace(
    "claim: [1]\n", "play_on:\n  question: {you: claim 1}\n  moves:\n    - you: claim 1\n"
)
JARGON = ("$:", "mapping", "None", "block end", "<scalar>", "while parsing", "while scanning")


@pytest.fixture(autouse=True)
def _not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def edited(base: str, old: str, new: str) -> str:
    assert base.count(old) == 1, old
    return base.replace(old, new)


# (name, case text, the message it must get)
MISTAKES = [
    ("rouge 5", edited(CLAIM, "[green 4]", "[rouge 5]"), "got 'rouge 5': did you mean 'red 5'?"),
    ("red 10", edited(CLAIM, "[green 4]", "[red 10]"), "value 1-9) or a tactic card"),
    ("Red 5", edited(CLAIM, "[green 4]", "[Red 5]"), "did you mean 'red 5'?"),
    ("red5", edited(CLAIM, "[green 4]", "[red5]"), "did you mean 'red 5'?"),
    ("5 rouge", edited(CLAIM, "[green 4]", "[5 rouge]"), "did you mean 'red 5'?"),
    ("Joker", edited(CLAIM, "[green 4]", "[Joker]"), "did you mean 'joker'?"),
    (
        "shield bearer",
        edited(CLAIM, "[green 4]", "[shield bearer]"),
        "did you mean 'shield-bearer'?",
    ),
    ("es missing", edited(CLAIM, "  es: Tres piedras contiguas\n", ""), "missing key 'es'"),
    (
        "one-language situation",
        edited(
            CLAIM,
            "situation:\n  fr: Trois Bornes voisines\n  es: Tres piedras contiguas\n",
            "situation: Trois Bornes voisines\n",
        ),
        "situation: one text per language: write `situation: {fr: ..., es: ...}`",
    ),
    (
        "es empty",
        edited(CLAIM, "  es: Tres piedras contiguas\n", "  es:\n"),
        "situation.es: the text is empty: write it after the key",
    ),
    (
        "French as Spanish",
        edited(CLAIM, "es: la partida sigue", "es: la partie continue, donc rien"),
        "why.es: this text reads as French, not Spanish",
    ),
    (
        "colon in an unquoted text",
        edited(CLAIM, "fr: la partie continue", "fr: la partie continue\u00a0: rien"),
        '5:26: a ": " inside a text or a move, which YAML reads as a new key: put the whole text '
        'in double quotes ("...")',
    ),
    (
        "half-quoted text",
        edited(CLAIM, "fr: la partie continue", 'fr: "la partie" continue'),
        "text after a closing quote: quote the whole text",
    ),
    (
        "quote never closed",
        edited(CLAIM, "fr: la partie continue", 'fr: "la partie continue'),
        "5:7: this quote is never closed",
    ),
    (
        "unquoted move with a colon",
        edited(PLAY_ON, "- you: claim 1", "- you: play traitor: red 3 from 1 to 2"),
        'a ": " inside a text or a move, which YAML reads as a new key: put the whole text in '
        "double quotes",
    ),
    (
        "tab",
        edited(CLAIM, "  fr: Trois", "\tfr: Trois"),
        "2:1: a tab: YAML indents with spaces only (two per level): replace the tab",
    ),
    (
        "# in an unquoted text",
        edited(CLAIM, "es: la partida sigue", "es: la partida sigue #2 y termina"),
        'why.es: the text stops before "#2 y termina": in YAML, " #" starts a comment',
    ),
    ("id key", edited(CLAIM, "variant:", "id: x\nvariant:"), "id: unknown key 'id' (expected:"),
    (
        "a near key",
        edited(CLAIM, "variant:", "variants:"),
        "unknown key 'variants': did you mean 'variant'?",
    ),
    ("stone 10", edited(CLAIM, "  2:\n", "  10:\n"), "unknown key '10' (expected: 1, 2, 3"),
    (
        "claim 10 move",
        edited(PLAY_ON, "- you: claim 1", "- you: claim 10"),
        "'claim 10' is not a move: there is no stone 10: stones are numbered 1 to 9",
    ),
    ("claim: [10]", edited(CLAIM, "claim: [1]", "claim: [10]"), "expected a stone from 1 to 9"),
    ("05:", edited(CLAIM, "  2:\n", "  05:\n"), "'05': write numbers in plain decimal (5)"),
    (
        "red 5 twice",
        edited(CLAIM, "[green 4]", "[green 5]"),
        "hands.you[0]: green 5 is already at stones.2.you[0] (line 15): the game has it once",
    ),
    (
        "two Jokers",
        edited(CLAIM, "opponent: [blue 1]", "opponent: [joker, joker]"),
        "opponent has played two Jokers: one per player over the game (joker-once)",
    ),
    (
        "four cards without Mud Fight",
        edited(CLAIM, "[red 1, red 2, red 3]", "[red 1, red 2, red 3, red 4]"),
        "4 cards on this side: a side holds 3",
    ),
    (
        "tactic count",
        edited(CLAIM, "    you: [green 5]", "    you: [joker, spy, shield-bearer]"),
        "a player may lead by one at most (tactic-count)",
    ),
    (
        "hand of 8",
        edited(
            CLAIM,
            "[green 4]",
            "[green 4, green 6, green 7, green 8, green 9, blue 2, blue 3, blue 4]",
        ),
        "hands.you: 8 cards in hand: at most 7 in the tactical game (hand-size)",
    ),
    (
        "taker's side incomplete",
        edited(CLAIM, "    you: [green 5]", "    you: [green 5]\n    claimed_by: you"),
        "stones.2.claimed_by: you took this stone, so your side must be complete",
    ),
    ("rule traître", edited(CLAIM, "[claim-proof]", "[traître]"), "did you mean 'traitor'?"),
    (
        "mud-fight: yes",
        edited(CLAIM, "    you: [green 5]", "    you: [green 5]\n    mud-fight: yes"),
        "bare 'yes' means true or false to YAML 1.1 (this format has neither): write the value "
        "this key takes",
    ),
    (
        "move in French",
        edited(PLAY_ON, "- you: claim 1", "- you: revendiquer la Borne 1"),
        "'revendiquer la Borne 1' is not a move: expected 'play <card> at <stone>'",
    ),
    (
        "wrong mover",
        edited(
            edited(PLAY_ON, "- you: claim 1", "- opponent: claim 1"),
            "{you: claim 1}",
            "{opponent: claim 1}",
        ),
        "opponent is not to move: this is the claim step of you (write 'you: claim 1'",
    ),
]


@pytest.mark.parametrize(("name", "text", "message"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_each_mistake_of_the_review_gets_its_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, message: str
) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert message in err, err
    for line in err.splitlines():
        assert line.startswith(f"error: {path}:"), line
        for word in JARGON:
            assert word not in line, (word, line)
        assert "write true or false" not in line


def test_the_valid_bases_are_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for text in (CLAIM, PLAY_ON):
        path = tmp_path / "x.yaml"
        path.write_text(text, encoding="utf-8")
        main(["check", str(path)])
        assert capsys.readouterr().err == ""  # only the missing `expect:`, shown as a mismatch


# -- folders: rows, tables, names --------------------------------------------------------------


@pytest.fixture
def casebook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(ROOT / "cases", tmp_path / "cases")
    # The proofs page reads the suite from the folder the site is built in, as scripts/build does;
    # a copy, since approving a case writes the suite's case vectors again.
    shutil.copytree(ROOT / "conformance", tmp_path / "conformance")
    monkeypatch.chdir(tmp_path)
    return Path("cases")


def rows_of(folder: Path, table: str) -> int:
    return sum(1 for p in folder.glob("*.yaml") if f"table: {table}," in p.read_text("utf-8"))


def test_a_misspelt_table_is_named_with_the_table_meant(casebook: Path) -> None:
    row = rows_of(casebook, "ruses") + 1
    published = f"published: {{table: ruse, row: {row}}}\n"
    (casebook / "new-ruse.yaml").write_text(CLAIM + published, encoding="utf-8")
    messages = [str(e) for e in load_folder(casebook)[1] if e.path.name == "new-ruse.yaml"]
    assert any(
        m.startswith("cases/new-ruse.yaml:21:")
        and f"table 'ruse', row {row}; no other case publishes a table 'ruse': did you mean "
        "'ruses'? (a new table starts at row 1)"
        in m
        for m in messages
    ), messages
    assert not any("follows a gap" in m for m in messages)


def test_a_table_on_no_page_names_the_case_that_publishes_it(casebook: Path) -> None:
    (casebook / "new-ruse.yaml").write_text(
        CLAIM + "published: {table: ruse, row: 1}\n", encoding="utf-8"
    )
    assert main(["approve", "new-ruse"]) == EXIT_OK
    with pytest.raises(SiteCheckError) as info:
        gate.prepare(ROOT / "site_src", casebook, display_root=Path.cwd())
    assert (
        "cases/new-ruse.yaml:21: published.table: published table 'ruse' is on no page in fr "
        "(call verdict_table('ruse')): did you mean 'ruses'?"
    ) in str(info.value)


def test_a_rename_that_would_overwrite_a_case_is_never_suggested(tmp_path: Path) -> None:
    (tmp_path / "traitor-case.yaml").write_text(CLAIM, encoding="utf-8")
    for name in ("traitor-case.yml", "Traitor-Case.yaml", "traitor-case.YAML"):
        problem = case_id_problem(tmp_path / name)
        assert problem is not None and "rename it" not in problem
        assert "a case traitor-case already exists (traitor-case.yaml)" in problem
    assert case_id_problem(tmp_path / "other.yml") == (
        "case files end in .yaml (lower case): rename it to other.yaml"
    )


def test_a_mistyped_path_is_named_once(casebook: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "cases/hand-is-not-proof.yml"]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert err == "error: no case file cases/hand-is-not-proof.yml\n"
    assert main(["explain", "hand-is-not-prof"]) == EXIT_FAILED
    assert "cases/cases" not in capsys.readouterr().err


def test_approve_never_tells_to_run_approve(
    casebook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (casebook / "new.yaml").write_text(CLAIM, encoding="utf-8")
    assert main(["approve", "new"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "expect: recorded for the first time" in out
    assert "schotten approve" not in out


def test_suggestions_name_cases_as_they_are_typed(
    casebook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """From the project's folder, a suggestion names a case by its id and a folder by its
    relative path, even when the build reads them by absolute path."""
    (casebook / "new.yaml").write_text(CLAIM + "published: {table: faq, row: 99}\n", "utf-8")
    messages = [str(e) for e in load_folder(casebook.resolve())[1]]
    assert any("run `schotten approve new` to publish it" in m for m in messages), messages
    (casebook / "new.yaml").unlink()
    (casebook / "published.lock.json").write_text("{", encoding="utf-8")
    (lock_error,) = load_folder(casebook.resolve())[1]
    assert "`schotten approve cases`" in lock_error.message
    assert str(Path.cwd()) not in lock_error.message
    assert re.search(r"approve /", lock_error.message) is None
