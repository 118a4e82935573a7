"""French spacing (:mod:`schotten.typography`): a narrow no-break space before ; ? !, a no-break
space before : and inside « », every fault found with a few characters around it."""

from __future__ import annotations

import pytest

from schotten.typography import NARROW_NO_BREAK, NO_BREAK, spacing_faults


def test_the_two_spaces_of_french_typography() -> None:
    assert (NO_BREAK, NARROW_NO_BREAK) == ("\u00a0", "\u202f")


@pytest.mark.parametrize(
    "text",
    [
        "Oui\u202f; non\u202f? Si\u202f!",
        "Ta main\u00a0: 3 jaune.",
        "«\u00a0Borne\u00a0»",
        "À 10:30, voir https://example.org",  # a colon inside a word is no punctuation
        "",
    ],
)
def test_well_spaced_french_has_no_fault(text: str) -> None:
    assert spacing_faults(text) == []


def test_an_ordinary_or_a_wide_space_before_a_semicolon_is_a_fault() -> None:
    assert spacing_faults("Oui ; non") == ['ordinary space before ";" in "Oui ; non"']
    assert len(spacing_faults("Oui\u00a0; non")) == 1  # the no-break space is the colon's


def test_a_narrow_space_before_a_colon_is_a_fault() -> None:
    assert spacing_faults("Ta main : 3") == ['ordinary space before ":" in " main : 3"']
    assert len(spacing_faults("Ta main\u202f: 3")) == 1


def test_a_mark_with_no_space_before_it_is_a_fault_even_at_the_end() -> None:
    assert spacing_faults("Vraiment?") == ['no space before "?" in "aiment?"']
    assert spacing_faults("Borne 4: refusée") == ['no space before ":" in "orne 4: ref"']


def test_guillemets_hold_a_no_break_space_inside() -> None:
    assert spacing_faults("«oui»") == [
        'no no-break space after "«" in "«oui»"',
        'no no-break space before "»" in "«oui»"',
    ]


def test_faults_come_in_the_order_of_the_text_and_show_a_line_break_as_a_space() -> None:
    assert spacing_faults("Non !\nOui ;\nPeut-être?") == [
        'ordinary space before "!" in "Non ! Oui"',
        'ordinary space before ";" in "! Oui ; Peu"',
        'no space before "?" in "t-être?"',
    ]


@pytest.mark.parametrize("text", ["Quoi\u202f?!", "Encore\u202f!?"])
def test_combined_marks_take_one_narrow_space_before_the_first(text: str) -> None:
    # French sets "?!" as one group: a narrow no-break space before the first mark, no space
    # between the two.
    assert spacing_faults(text) == []
