"""The gate lets nothing through silently: every file of a case folder is a case or an error, and
hostile or damaged case files end in a located error, never a traceback, a hang or a silent skip.

One test per problem found when the casebook was attacked on purpose (null documents, alias bombs,
duplicate keys in other spellings, special files, unreadable files, control characters, ...).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from schotten import json_input
from schotten.casebook import CaseFileError
from schotten.casebook.build import load_case, parse_case
from schotten.casebook.files import LOCK_NAME, MAX_CASE_BYTES, case_paths
from schotten.casebook.folder import load_cases, load_folder
from schotten.casebook.loader import MAX_DEPTH, MAX_NODES, parse_yaml
from schotten.cli import EXIT_FAILED, EXIT_OK, main

DATA = Path(__file__).parent / "data" / "cases"
ROOT_CASES = Path(__file__).resolve().parents[1] / "cases"
VALID = DATA / "valid"
CASE = (VALID / "three-adjacent.yaml").read_text(encoding="utf-8")  # valid, unpublished below
UNPUBLISHED = re.sub(r"(?m)^published: .*\n", "", CASE)


def errors_of(text: str, name: str = "x.yaml") -> list[str]:
    """The messages of a case text, which must be refused with located errors."""
    with pytest.raises(CaseFileError) as info:
        parse_case(text, Path(name))
    errors = info.value.errors
    assert errors, "a refused file must say why"
    for error in errors:
        assert error.line >= 1 and error.column >= 1
    return [f"{e.line}:{e.column}: {e.message}" for e in errors]


def run_cli(
    *argv: str, cwd: Path | None = None, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    """``schotten`` in a child process, so that a hang is a failure (timeout), not a stuck suite."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run(
        [sys.executable, "-c", "from schotten.cli import entrypoint; entrypoint()", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# -- null and empty documents ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["---\n", "~\n", "null\n", '!!null ""\n', "# only a comment\n", ""]
)
def test_a_null_or_empty_document_is_an_error_not_a_skipped_case(text: str) -> None:
    (message,) = errors_of(text)
    assert "empty" in message


def test_an_anchor_alone_is_refused() -> None:
    (message,) = errors_of("&a\n")
    assert "anchor &a" in message


def test_check_counts_a_null_document_as_invalid(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(UNPUBLISHED, encoding="utf-8")
    (tmp_path / "truncated.yaml").write_text("---\n", encoding="utf-8")
    run = run_cli("check", str(tmp_path))
    assert run.returncode == EXIT_FAILED
    assert "2 cases: 1 ok, 0 mismatches, 1 invalid" in run.stdout
    assert re.search(r"truncated\.yaml:\d+:1: the file holds no case", run.stderr)


@pytest.mark.parametrize("command", ["approve", "explain"])
def test_approve_and_explain_say_why_a_null_document_is_refused(
    tmp_path: Path,
    command: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    path = tmp_path / "truncated.yaml"
    path.write_text("null\n", encoding="utf-8")
    assert main([command, str(path)]) == EXIT_FAILED
    assert "truncated.yaml:1:1: the file holds no case" in capsys.readouterr().err


# -- YAML the format does not need -------------------------------------------------------------


def test_an_alias_bomb_is_refused_at_its_first_anchor() -> None:
    levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    levels += [
        f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    ]
    (message,) = errors_of("\n".join(levels) + "\n")
    assert message.startswith("1:4: anchor &a: case files use no anchors or aliases")


def test_a_recursive_alias_is_refused() -> None:
    (message,) = errors_of("a: &r [*r]\n")
    assert "anchor &r" in message


def test_tags_other_than_the_core_ones_are_refused() -> None:
    assert any("tag !!set: case files use no tags" in m for m in errors_of("a: !!set {x}\n"))
    assert any("tag !foo: case files use no tags" in m for m in errors_of("a: !foo 1\n"))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("!!int two", "'two' is not a whole number (tag !!int)"),
        ("!!float x", "'x' is not a decimal number (tag !!float)"),
        ("!!bool yes", "'yes' is not true or false (tag !!bool)"),
        ("!!seq abc", "tag !!seq does not fit this value"),
    ],
)
def test_a_core_tag_must_agree_with_its_value(value: str, message: str) -> None:
    text = UNPUBLISHED + f"published: {{table: faq, row: {value}}}\n"
    assert any(message in m for m in errors_of(text))


@pytest.mark.parametrize("spelling", ["04", "0x4", "4.0", "+4", "0b100", "0o4", "4_0", "1e1"])
def test_a_stone_key_in_another_spelling_is_an_error(spelling: str) -> None:
    text = UNPUBLISHED.replace("stones:\n", f"stones:\n  {spelling}:\n    you: [blue 1]\n", 1)
    messages = errors_of(text)
    assert any(
        f"'{spelling}': write numbers in plain decimal" in m
        or "a key is a name or a stone number" in m
        for m in messages
    ), messages


def test_duplicate_stone_keys_in_two_spellings_never_let_the_last_one_win() -> None:
    text = "stones:\n  4: {you: [red 1]}\n  04: {you: [red 2]}\n"
    doc = parse_yaml(text, Path("x.yaml"))
    assert [(e.line, e.column) for e in doc.errors] == [(3, 3)]
    assert "write numbers in plain decimal (4)" in doc.errors[0].message


@pytest.mark.parametrize("digits", ["²", "٤", "４", "①"])
def test_non_ascii_digits_are_errors(digits: str) -> None:
    messages = errors_of(UNPUBLISHED.replace("claim: [3, 4]", f"claim: [{digits}]"))
    assert any("write numbers with the digits 0-9" in m for m in messages) or any(
        "expected a whole number" in m for m in messages
    ), messages


def test_a_key_written_with_a_superscript_digit_is_an_error_not_a_traceback() -> None:
    messages = errors_of(UNPUBLISHED.replace("stones:\n", "stones:\n  ²:\n    you: [blue 1]\n", 1))
    assert any("'²': write numbers with the digits 0-9" in m for m in messages), messages


def test_an_integer_of_thousands_of_digits_is_an_error() -> None:
    messages = errors_of(UNPUBLISHED.replace("claim: [3, 4]", "claim: [" + "9" * 5000 + "]"))
    assert any("numbers in a case are small" in m for m in messages), messages
    assert all(len(m) < 400 for m in messages)


def test_a_move_of_thousands_of_characters_gets_a_short_message() -> None:
    text = (ROOT_CASES / "traitor-without-a-target.yaml").read_text(encoding="utf-8")
    text = text.replace("- opponent: draw clan", "- opponent: " + "9" * 5000 + " tactic")
    messages = errors_of(text)
    assert messages and all(len(m) < 500 for m in messages)
    assert any("draw clan|tactic" in m for m in messages), messages


def test_a_decimal_is_not_a_stone_number() -> None:
    messages = errors_of(UNPUBLISHED.replace("claim: [3, 4]", "claim: [4.0]"))
    assert any("expected a whole number, got 4.0" in m for m in messages), messages


@pytest.mark.parametrize("char", ["\f", "\x00", "\x1b", "\x7f", "\u2028"])
def test_control_characters_are_located(char: str) -> None:
    text = UNPUBLISHED.replace("variant: base", f"variant: ba{char}se")
    line = 1 + text[: text.index(char)].count("\n")
    (message,) = errors_of(text)
    assert message.startswith(f"{line}:12: control character U+")


def test_deep_nesting_is_refused_with_its_place() -> None:
    messages = errors_of("a: " + "[" * 5000 + "]" * 5000 + "\n")
    assert messages == [f"1:{4 + MAX_DEPTH - 1}: nested more than {MAX_DEPTH} levels deep"]


def test_too_many_values_are_refused() -> None:
    messages = errors_of("a: [" + ", ".join(["1"] * (MAX_NODES + 10)) + "]\n")
    assert len(messages) == 1 and f"more than {MAX_NODES} values" in messages[0]


def test_thousands_of_unknown_keys_are_each_located() -> None:
    keys = [f"k{i}: 1" for i in range(4000)]
    text = UNPUBLISHED + "\n".join(keys) + "\n"
    messages = errors_of(text)
    unknown = [m for m in messages if "unknown key 'k" in m]
    assert len(unknown) == 4000
    first_line = UNPUBLISHED.count("\n") + 1
    assert unknown[0].startswith(f"{first_line}:1: unknown key 'k0'")
    assert unknown[-1].startswith(f"{first_line + 3999}:1: unknown key 'k3999'")


# -- files that are not plain case files -------------------------------------------------------


def test_every_entry_of_a_case_folder_is_a_case_or_an_error(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(UNPUBLISHED, encoding="utf-8")
    for name in ("a.yml", "b.YAML", "c.yaml.bak", "Upper.yaml", ".hidden.yaml", "notes.txt"):
        (tmp_path / name).write_text(UNPUBLISHED, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "README.md").write_text("# cases\n", encoding="utf-8")
    paths, errors = case_paths(tmp_path)
    assert [p.name for p in paths] == ["good.yaml"]
    refused = {e.path.name: e.message for e in errors}
    assert sorted(refused) == sorted(
        [".hidden.yaml", "Upper.yaml", "a.yml", "b.YAML", "c.yaml.bak", "notes.txt", "sub"]
    )
    assert refused["a.yml"] == "case files end in .yaml (lower case): rename it to a.yaml"
    assert "rename it to upper.yaml" in refused["Upper.yaml"]
    assert "not a case file" in refused["c.yaml.bak"]
    # The build, check and the tests read folders through the same function.
    cases, folder_errors = load_folder(tmp_path)
    assert [c.id for c in cases] == ["good"]
    assert {e.path.name for e in folder_errors} == set(refused)
    run = run_cli("check", str(tmp_path))
    assert run.returncode == EXIT_FAILED
    for name in refused:
        assert f"{name}:1:1:" in run.stderr


def test_a_fifo_is_refused_without_being_opened(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(UNPUBLISHED, encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.yaml")
    run = run_cli("check", str(tmp_path), timeout=20)
    assert run.returncode == EXIT_FAILED
    assert "pipe.yaml:1:1: a FIFO, not a regular file" in run.stderr
    assert "good" in run.stdout and " ok" in run.stdout


def test_a_link_to_a_device_is_refused_without_being_read(tmp_path: Path) -> None:
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    run = run_cli("check", str(tmp_path), timeout=20)
    assert run.returncode == EXIT_FAILED
    assert "zero.yaml:1:1: a device or socket, not a regular file" in run.stderr


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(UNPUBLISHED + "#" * MAX_CASE_BYTES, encoding="utf-8")
    with pytest.raises(CaseFileError, match=f"a case file|at most {MAX_CASE_BYTES} bytes"):
        load_case(path)


def test_a_file_that_is_not_utf8_is_located(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(UNPUBLISHED.encode().replace(b"variant: base", b"variant: b\xe9se"))
    with pytest.raises(CaseFileError) as info:
        load_case(path)
    (error,) = info.value.errors
    line = 1 + UNPUBLISHED[: UNPUBLISHED.index("variant")].count("\n")
    assert (error.line, error.column) == (line, 11)
    assert "not UTF-8" in error.message


def test_an_unreadable_case_is_a_clean_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "good.yaml").write_text(UNPUBLISHED, encoding="utf-8")
    secret = tmp_path / "secret.yaml"
    secret.write_text(UNPUBLISHED, encoding="utf-8")
    real_open = os.open

    def refuse(path: str | os.PathLike[str], flags: int, *args: int) -> int:
        # chmod 000 does not stop root: refuse the way the kernel would for anyone else.
        if Path(path).name == "secret.yaml":
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", refuse)
    assert main(["check", str(tmp_path)]) == EXIT_FAILED
    captured = capsys.readouterr()
    assert "secret.yaml:1:1: cannot read it: Permission denied" in captured.err
    assert "good" in captured.out


def test_one_bad_file_never_hides_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "good.yaml").write_text(UNPUBLISHED, encoding="utf-8")
    bad = {
        "alias.yaml": "a: &x 1\nb: *x\n",
        "digits.yaml": UNPUBLISHED.replace("claim: [3, 4]", "claim: [" + "7" * 5000 + "]"),
        "nested.yaml": "a: " + "[" * 3000 + "]" * 3000 + "\n",
        "nul.yaml": "a: \x00\n",
        "tag.yaml": "a: !!int two\n",
        "super.yaml": "²: 1\n",
    }
    for name, text in bad.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert main(["check", str(tmp_path)]) == EXIT_FAILED
    captured = capsys.readouterr()
    assert f"{len(bad) + 1} cases: 1 ok, 0 mismatches, {len(bad)} invalid" in captured.out
    assert "Traceback" not in captured.err
    for name in bad:
        assert re.search(rf"{re.escape(name)}:\d+:\d+: ", captured.err), name


# -- the lock: what is published ---------------------------------------------------------------


def published_folder(tmp_path: Path) -> Path:
    """A copy of the valid folder (two published cases, faq rows 1 and 2) with its lock."""
    folder = tmp_path / "cases"
    shutil.copytree(VALID, folder)
    assert load_cases(folder)
    return folder


def test_a_published_case_that_disappears_stops_the_gate(tmp_path: Path) -> None:
    folder = published_folder(tmp_path)
    (folder / "hand-is-not-proof.yaml").unlink()
    _cases, errors = load_folder(folder)
    messages = [str(e) for e in errors]
    assert any(
        f"{LOCK_NAME}:" in m
        and "hand-is-not-proof is published (faq row 1)" in m
        and "`schotten retire hand-is-not-proof`" in m
        for m in messages
    ), messages


def test_a_gap_in_the_rows_stops_the_gate(tmp_path: Path) -> None:
    folder = published_folder(tmp_path)
    path = folder / "three-adjacent.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("row: 2}", "row: 3}"), encoding="utf-8"
    )
    messages = [str(e) for e in load_folder(folder)[1]]
    assert any("faq row 3 follows a gap: no case has row 2" in m for m in messages), messages
    assert any("run `schotten approve three-adjacent`" in m for m in messages), messages


def test_a_verdict_changed_outside_approve_stops_the_gate(tmp_path: Path) -> None:
    folder = published_folder(tmp_path)
    lock = folder / LOCK_NAME
    lock.write_text(
        lock.read_text(encoding="utf-8").replace('"granted"', '"refused"', 1), encoding="utf-8"
    )
    messages = [str(e) for e in load_folder(folder)[1]]
    # The lock was edited, not the case: one message, on the lock's entry.
    assert any(
        "edited by hand" in m and "run `schotten approve three-adjacent`" in m for m in messages
    ), messages


def test_a_published_case_missing_from_the_lock_stops_the_gate(tmp_path: Path) -> None:
    folder = published_folder(tmp_path)
    (folder / "new.yaml").write_text(UNPUBLISHED + "published: {table: faq, row: 3}\n", "utf-8")
    messages = [str(e) for e in load_folder(folder)[1]]
    assert any(
        "new.yaml" in m and "not in published.lock.json: run `schotten approve new`" in m
        for m in messages
    )


def test_a_damaged_lock_says_how_to_rewrite_it(tmp_path: Path) -> None:
    folder = published_folder(tmp_path)
    (folder / LOCK_NAME).write_text('{"format": 1, "published": {', encoding="utf-8")
    (error,) = load_folder(folder)[1]
    assert error.path.name == LOCK_NAME
    assert "not valid JSON" in error.message and "schotten approve" in error.message


def test_approving_the_folder_rewrites_a_damaged_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    folder = published_folder(tmp_path)
    good = (folder / LOCK_NAME).read_bytes()
    (folder / LOCK_NAME).write_text("<<<<<<< ours\n", encoding="utf-8")
    assert main(["approve", str(folder)]) == EXIT_OK
    assert (folder / LOCK_NAME).read_bytes() == good


def test_a_lock_with_a_huge_number_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    folder = published_folder(tmp_path)
    (folder / LOCK_NAME).write_text('{"format": ' + "9" * 5000 + "}", encoding="utf-8")
    (error,) = load_folder(folder)[1]
    assert error.path.name == LOCK_NAME and "not valid JSON" in error.message


def test_a_case_given_twice_in_the_lock_is_an_error_not_the_last_one_wins(
    tmp_path: Path,
) -> None:
    folder = published_folder(tmp_path)
    lock = folder / LOCK_NAME
    text = lock.read_text(encoding="utf-8")
    stale = '"hand-is-not-proof": {"table": "faq", "row": 7, "expect": null},'
    lock.write_text(text.replace('"published": {', '"published": {' + stale, 1), "utf-8")
    (error,) = load_folder(folder)[1]
    assert error.path == lock and error.line >= 1 and error.column >= 1
    assert 'the key "hand-is-not-proof" is given twice' in error.message
    assert "schotten approve" in error.message
    assert str(error).startswith(f"{lock}:")


def test_a_lock_nested_ten_thousand_deep_is_a_located_error(tmp_path: Path) -> None:
    folder = published_folder(tmp_path)
    lock = folder / LOCK_NAME
    lock.write_text('{"format": 1,\n "note": ' + "[" * 10_000 + "]" * 10_000 + "}", "utf-8")
    (error,) = load_folder(folder)[1]
    assert error.path == lock
    # The lock's own brace is level 1: the bracket past the limit is the MAX_DEPTH-th one.
    assert (error.line, error.column) == (2, len(' "note": ') + json_input.MAX_DEPTH)
    assert "nested deeper than" in error.message and "schotten approve" in error.message


def test_the_lock_is_stable_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    folder = published_folder(tmp_path)
    before = (folder / LOCK_NAME).read_bytes()
    (folder / LOCK_NAME).unlink()
    assert main(["approve", str(folder)]) == EXIT_OK
    assert (folder / LOCK_NAME).read_bytes() == before
    assert main(["approve", str(folder)]) == EXIT_OK
    assert (folder / LOCK_NAME).read_bytes() == before


def test_approve_records_a_newly_published_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    folder = published_folder(tmp_path)
    (folder / "new.yaml").write_text(UNPUBLISHED + "published: {table: faq, row: 3}\n", "utf-8")
    assert main(["approve", str(folder / "new.yaml")]) == EXIT_OK
    assert load_folder(folder)[1] == []


def test_approve_does_not_unpublish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CI", raising=False)
    folder = published_folder(tmp_path)
    path = folder / "three-adjacent.yaml"
    text = re.sub(r"(?m)^published: .*\n", "", path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8")
    lock = (folder / LOCK_NAME).read_bytes()
    assert main(["approve", str(path)]) == EXIT_FAILED
    assert "`schotten retire three-adjacent`" in capsys.readouterr().err
    assert (folder / LOCK_NAME).read_bytes() == lock


def test_retire_withdraws_a_case_and_moves_the_next_rows_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    folder = published_folder(tmp_path)
    first = folder / "hand-is-not-proof.yaml"
    assert main(["retire", str(first)]) == EXIT_OK
    assert "published" not in first.read_text(encoding="utf-8").split("expect:")[0]
    cases, errors = load_folder(folder)
    assert errors == []
    places = {c.id: (c.published.table, c.published.row) for c in cases if c.published}
    assert places == {"three-adjacent": ("faq", 1)}


def test_retire_a_deleted_case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    folder = published_folder(tmp_path)
    (folder / "three-adjacent.yaml").unlink()
    assert load_folder(folder)[1]
    assert main(["retire", str(folder / "three-adjacent.yaml")]) == EXIT_OK
    assert load_folder(folder)[1] == []


@pytest.mark.parametrize("command", ["approve", "retire"])
@pytest.mark.parametrize("value", ["", "0", "false", "true"])
def test_any_ci_value_even_empty_refuses_changes_to_publication(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    value: str,
) -> None:
    folder = published_folder(tmp_path)
    monkeypatch.setenv("CI", value)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert main([command, str(folder / "three-adjacent.yaml")]) == EXIT_FAILED
    assert "does not run when CI is set" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


# -- approve never loses data ------------------------------------------------------------------


def stale_case(folder: Path, text: str = UNPUBLISHED) -> Path:
    """A case whose recorded game state is wrong, followed by lines approve must keep."""
    path = folder / "x.yaml"
    stale = text.replace("  game: won-by-you", "  game: ongoing")
    assert stale != text
    newline = "\r\n" if "\r\n" in text else "\n"
    path.write_text(stale + f"# a comment after expect{newline}", encoding="utf-8", newline="")
    return path


def test_approving_the_same_file_twice_in_one_command_keeps_what_follows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases").mkdir()
    path = stale_case(tmp_path / "cases")
    text = path.read_text(encoding="utf-8")
    assert main(["approve", "x", "cases/x.yaml", str(path)]) == EXIT_OK
    new = path.read_text(encoding="utf-8")
    assert new.endswith("# a comment after expect\n")
    assert new.count("expect:") == 1
    assert new.replace("game: won-by-you", "game: ongoing") == text


def test_approve_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    from schotten.casebook.approve import approve

    path = stale_case(tmp_path)
    case = load_case(path)
    path.write_text(path.read_text(encoding="utf-8") + "# edited meanwhile\n", encoding="utf-8")
    edited = path.read_bytes()
    with pytest.raises(CaseFileError, match="changed since it was read"):
        approve(case)
    assert path.read_bytes() == edited


def test_approve_keeps_crlf_line_endings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    path = stale_case(tmp_path, UNPUBLISHED.replace("\n", "\r\n"))
    assert main(["approve", str(path)]) == EXIT_OK
    data = path.read_bytes()
    assert b"game: won-by-you\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")


# -- the site build reads the same way ---------------------------------------------------------


def test_the_build_refuses_a_stray_file_in_the_case_folder(tmp_path: Path) -> None:
    from schotten.site import gate

    folder = published_folder(tmp_path)
    shutil.copy(folder / "three-adjacent.yaml", folder / "copy.yaml.bak")
    problems: list[str] = []
    gate._published_results(folder, problems, tmp_path)
    assert problems == [
        "invalid case file: cases/copy.yaml.bak:1:1: not a case file: a case folder holds "
        "<id>.yaml cases and README.md, case.schema.json, published.lock.json only; move it out "
        "of the folder"
    ]


def test_the_build_refuses_a_published_play_on_naming_the_wrong_mover(tmp_path: Path) -> None:
    from schotten.site import gate

    folder = tmp_path / "cases"
    folder.mkdir()
    text = (ROOT_CASES / "banshee-resets-completion.yaml").read_text(encoding="utf-8")
    wrong = text.replace(
        '    - you: "play banshee: green 7 at 8"', '    - opponent: "play banshee: green 7 at 8"'
    )
    assert wrong != text
    (folder / "banshee-resets-completion.yaml").write_text(wrong, encoding="utf-8")
    problems: list[str] = []
    results = gate._published_results(folder, problems, tmp_path)
    assert results == ()
    movers = [p for p in problems if "opponent is not to move" in p]
    assert len(movers) == 1, problems
    assert movers[0].startswith("invalid case file: cases/banshee-resets-completion.yaml:29:")


def _permission_denied(path: Path) -> bytes:
    raise PermissionError(13, "Permission denied", str(path))


def test_an_unreadable_page_is_a_clean_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from schotten.site import SiteCheckError
    from schotten.site.gate import fingerprint, read_page

    page = tmp_path / "docs" / "rules.md"
    page.parent.mkdir()
    page.write_text("# Règles\n", encoding="utf-8")
    real_open = os.open

    def refuse(path: str | os.PathLike[str], flags: int, *args: int) -> int:
        if Path(path).name == "rules.md":
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.setattr(Path, "read_bytes", _permission_denied)
    assert fingerprint(page.parent, tmp_path / "cases")  # hashed without reading: no traceback
    with pytest.raises(
        SiteCheckError, match=r"docs/rules\.md:1:1: cannot read it: Permission denied"
    ):
        read_page(page, tmp_path)
