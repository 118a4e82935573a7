"""A case's texts: re-read after a changed verdict, and refused wherever the editor works (check,
explain, approve, the build) when YAML cut them, they are in the wrong language, a term differs
from the site's labels, or French spacing is wrong."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from schotten.casebook.build import load_case
from schotten.casebook.files import LOCK_NAME
from schotten.casebook.folder import load_folder
from schotten.casebook.prose import language_of, text_problems
from schotten.cli import EXIT_FAILED, EXIT_OK, main
from schotten.site import SiteCheckError
from schotten.site.gate import prepare

ROOT = Path(__file__).resolve().parents[1]
VALID = Path(__file__).parent / "data" / "cases" / "valid"
THREE = (VALID / "three-adjacent.yaml").read_text(encoding="utf-8")
UNPUBLISHED = re.sub(r"(?m)^published: .*\n", "", THREE)
TEXTS = ("situation.fr", "situation.es", "why.fr", "why.es")


@pytest.fixture(autouse=True)
def _not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def flip(path: Path) -> None:
    """hand-is-not-proof with the yellow 3 on the table: every 3 is seen, the claim is granted."""
    text = path.read_text(encoding="utf-8")
    flipped = text.replace("you: [yellow 3, red 9,", "you: [red 9,").replace(
        "you: [orange 3, orange 4]", "you: [orange 3, orange 4, yellow 3]"
    )
    assert flipped != text
    path.write_text(flipped, encoding="utf-8")


@pytest.fixture
def casebook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the project's cases, the current folder being its parent."""
    shutil.copytree(ROOT / "cases", tmp_path / "cases")
    # The proofs page reads the suite from the folder the site is built in, as scripts/build does;
    # a copy, since approving a case writes the suite's case vectors again.
    shutil.copytree(ROOT / "conformance", tmp_path / "conformance")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "cases"


def review_errors(folder: Path) -> list[str]:
    """The folder's texts to re-read, as ``schotten check cases`` shows them."""
    shown = Path(folder.name)  # the current folder is its parent
    return [str(e) for e in load_folder(shown)[1] if "verdict changed" in e.message]


# -- a flipped verdict re-opens its texts ------------------------------------------------------


def test_a_flipped_verdict_is_refused_until_its_texts_are_confirmed(
    casebook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = casebook / "hand-is-not-proof.yaml"
    assert review_errors(casebook) == []
    flip(case)
    assert main(["approve", "hand-is-not-proof"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "expect.stones.4.verdict: refused -> granted" in out
    assert "to re-read: cases/hand-is-not-proof.yaml:3:" in out
    (error,) = review_errors(casebook)
    assert error.startswith("cases/hand-is-not-proof.yaml:3:")
    assert "stone 4: refused (opponent-can-beat) witness yellow 3 -> granted (unbeatable)" in error
    for key, line in zip(TEXTS, (3, 4, 6, 7), strict=True):
        assert f"{key} (line {line})" in error
    assert "in French and Spanish" in error
    assert "`schotten approve hand-is-not-proof --texts-reviewed`" in error
    lock = json.loads((casebook / LOCK_NAME).read_text(encoding="utf-8"))
    assert set(lock["published"]["hand-is-not-proof"]["review"]["texts"]) == set(TEXTS)

    assert main(["approve", "hand-is-not-proof", "--texts-reviewed"]) == EXIT_OK
    assert review_errors(casebook) == []
    assert (
        "review"
        not in json.loads((casebook / LOCK_NAME).read_text("utf-8"))["published"][
            "hand-is-not-proof"
        ]
    )
    assert load_folder(casebook)[1] == []


def test_editing_a_text_counts_as_re_reading_it(casebook: Path) -> None:
    case = casebook / "hand-is-not-proof.yaml"
    flip(case)
    assert main(["approve", str(case)]) == EXIT_OK
    text = case.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^(  fr: )Ton Brelan.*$", r"\1Ton Brelan de 1 face à ses deux 3", text)
    text = re.sub(r'(?m)^(  fr: )"Ta main.*$', r"\1Tous les 3 sont visibles.", text)
    case.write_text(text, encoding="utf-8")
    (error,) = review_errors(casebook)
    assert "situation.es (line 4), why.es (line 7)" in error and "fr (line" not in error
    assert "in Spanish:" in error
    # Approving again keeps what is left to re-read; editing the rest settles it.
    assert main(["approve", str(case)]) == EXIT_OK
    assert len(review_errors(casebook)) == 1
    text = re.sub(r"(?m)^(  es: )Tu Trío.*$", r"\1Tu Trío de unos frente a sus dos treses", text)
    text = re.sub(r"(?m)^(  es: )Lo que tienes.*$", r"\1Todos los treses están a la vista.", text)
    case.write_text(text, encoding="utf-8")
    assert review_errors(casebook) == []


def test_a_verdict_unchanged_asks_for_no_re_reading(casebook: Path) -> None:
    assert main(["approve", str(casebook)]) == EXIT_OK
    lock = json.loads((casebook / LOCK_NAME).read_text(encoding="utf-8"))
    assert not any("review" in entry for entry in lock["published"].values())
    assert all(set(entry["texts"]) == set(TEXTS) for entry in lock["published"].values())


def test_the_build_refuses_a_flipped_verdict_until_its_texts_are_confirmed(
    casebook: Path,
) -> None:
    flip(casebook / "hand-is-not-proof.yaml")
    assert main(["approve", "hand-is-not-proof"]) == EXIT_OK
    with pytest.raises(SiteCheckError) as info:
        prepare(ROOT / "site_src", casebook, display_root=casebook.parent)
    assert "cases/hand-is-not-proof.yaml:3:" in str(info.value)
    assert "--texts-reviewed" in str(info.value)
    assert main(["approve", "hand-is-not-proof", "--texts-reviewed"]) == EXIT_OK
    prepared = prepare(ROOT / "site_src", casebook, display_root=casebook.parent)
    assert any(result.case.id == "hand-is-not-proof" for result in prepared.results)


# -- text mistakes -----------------------------------------------------------------------------


FRENCH = "Ta main est cachée, donc elle ne prouve rien pour la Borne 4."


def case_with(tmp_path: Path, situation: str, why: str | None = None) -> Path:
    text = re.sub(r"(?ms)^situation:.*?(?=^why:)", situation, UNPUBLISHED)
    if why is not None:
        text = re.sub(r"(?ms)^why:.*?(?=^source:)", why, text)
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    return path


MISTAKES = {
    "French as Spanish": (
        f"situation:\n  fr: {FRENCH}\n  es: {FRENCH}\n",
        "situation.es: the Spanish text is the French one, word for word: write it in Spanish",
    ),
    "French words as Spanish": (
        f"situation:\n  fr: Trois Bornes voisines\n  es: {FRENCH}\n",
        "situation.es: this text reads as French, not Spanish: the `es` text is written in Spanish",
    ),
    "Spanish words as French": (
        "situation:\n  fr: Tu mano está oculta, así que no prueba nada todavía.\n"
        "  es: Tres piedras contiguas\n",
        "situation.fr: this text reads as Spanish, not French",
    ),
    "a # in an unquoted text": (
        "situation:\n  fr: Trois Bornes voisines\n  es: Tu lado tiene sitio #2 para la carta\n",
        'situation.es: the text stops before "#2 para la carta": in YAML, " #" starts a '
        "comment, so the rest is dropped; put the whole text in double quotes",
    ),
    "Póquer": (
        "situation:\n  fr: Trois Bornes voisines\n  es: Tu Póquer de nueves\n",
        'situation.es: "Póquer" is written "Póker" on the site (label formations.same-value-4)',
    ),
    "Comodin": (
        "situation:\n  fr: Trois Bornes voisines\n  es: Su Comodin ya jugado\n",
        'situation.es: "Comodin" is written "Comodín" on the site (label tactics.joker)',
    ),
    "Traitre": (
        "situation:\n  fr: Ton Traitre prend le 9\n  es: Tres piedras contiguas\n",
        'situation.fr: "Traitre" is written "Traître" on the site (label tactics.traitor)',
    ),
    "space before ;": (
        "situation:\n  fr: Combat de Boue sur la Borne 5 ; sa Suite\n  es: Tres piedras\n",
        'situation.fr: ordinary space before ";" in "rne 5 ; sa ": French puts a narrow no-break '
        'space (U+202F) before ";": in YAML, write the text in double quotes with "\\u202f" in '
        'place of the space ("Borne 5\\u202f; ..."), or type the character itself',
    ),
    "no space before :": (
        'situation:\n  fr: "Borne 4: refusée"\n  es: Tres piedras\n',
        'situation.fr: no space before ":" in "orne 4: ref": French puts a no-break space '
        '(U+00A0) before ":": in YAML, write the text in double quotes with "\\u00a0" before the '
        "mark",
    ),
}


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_a_text_mistake_is_refused_by_check_explain_and_approve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    situation, message = MISTAKES[name]
    path = case_with(tmp_path, situation)
    before = path.read_bytes()
    for command in ("check", "explain", "approve"):
        assert main([command, str(path)]) == EXIT_FAILED, command
        err = capsys.readouterr().err
        assert f"{path}:" in err and message in err, (command, err)
    assert path.read_bytes() == before


def test_every_text_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = case_with(
        tmp_path,
        "situation:\n  fr: Oui ; non ; peut-être ?\n  es: Tres piedras\n",
        "why:\n  fr: Ton Traitre\n  es: Su Comodin\n",
    )
    messages = [e.message for e in text_problems(load_case(path))]
    assert len(messages) == 5, messages


def test_the_cases_texts_are_free_of_these_mistakes() -> None:
    for path in sorted((ROOT / "cases").glob("*.yaml")):
        assert text_problems(load_case(path)) == [], path


def test_the_language_detector_knows_every_text_of_the_casebook() -> None:
    """Every text of the casebook is read as its own language or as neither, never as the other;
    of those of eight words or more, each is recognised."""
    recognised = []
    for path in sorted((ROOT / "cases").glob("*.yaml")):
        case = load_case(path)
        for texts in (case.situation, case.why):
            for lang, text in texts.items():
                found = language_of(text)
                assert found in (lang, None), (path, lang, text)
                if len(text.split()) >= 8:
                    recognised.append(found == lang)
    assert recognised and all(recognised)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Combat de Boue sur la Borne 5 ; sa Suite couleur rouge est complète", "fr"),
        ("Combate en el barro en la piedra 5; su Escalera de color roja está completa", "es"),
        ("l'adversaire n'a qu'un 3", "fr"),
        ("¿Puede conquistarla?", "es"),
        ("Banshee", None),
        ("3-4-5", None),
    ],
)
def test_language_of(text: str, lang: str | None) -> None:
    assert language_of(text) == lang


def test_a_quoted_hash_is_part_of_the_text(tmp_path: Path) -> None:
    path = case_with(
        tmp_path, 'situation:\n  fr: Trois Bornes voisines\n  es: "Tu lado tiene sitio #2"\n'
    )
    assert text_problems(load_case(path)) == []
