"""A run's report: the table, the disagreements grouped by signature, the verdict line, and its
files (``--report`` JSON Lines, JUnit XML, case files).

Disagreements that are one bug share a signature (the kind, what was expected and what the
engine answered, without the particulars of each position): they are shown as one group, with
its count and its smallest example as the request line to paste and the answer expected.
"""

from __future__ import annotations

import shlex
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from schotten import json_input
from schotten._files import InputFileError, read_regular_file
from schotten.conformance.checks import LEVELS
from schotten.conformance.runner import NOTHING_CHECKED, Outcome, RunReport
from schotten.conformance.suite import json_lines
from schotten.conformance.wire import dumps

MAX_REPORT_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Group:
    kind: str
    signature: str
    outcomes: tuple[Outcome, ...]

    @property
    def example(self) -> Outcome:
        return min(self.outcomes, key=lambda o: (o.size, o.vector))


def groups(outcomes: Iterable[Outcome], fail_on: str = "all") -> list[Group]:
    """The outcomes by signature: the groups that fail the run at ``fail_on`` first, largest
    group first within each (then by signature, for a stable order)."""
    found: dict[tuple[str, str], list[Outcome]] = {}
    for outcome in outcomes:
        found.setdefault((outcome.kind, outcome.signature), []).append(outcome)
    ordered = sorted(
        found.items(),
        key=lambda item: (not item[1][0].counts_at(fail_on), -len(item[1]), item[0]),
    )
    return [Group(kind, signature, tuple(items)) for (kind, signature), items in ordered]


def table(report: RunReport) -> str:
    rows: list[tuple[str, ...]] = [
        ("kind", "vectors", "agree", "disagree", "failed", "not claimed", "not run")
    ]
    for t in report.tallies:
        counts = (t.vectors, t.agreed, t.disagreed, t.failed, t.not_claimed, t.not_run)
        rows.append((t.kind, *(str(c) for c in counts)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        line = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(line).rstrip())
    for t in report.tallies:
        asked = t.vectors - t.not_claimed - t.not_run - t.failed
        if t.levels and asked:
            levels = ", ".join(f"{level} {t.levels[level]}" for level in LEVELS)
            lines.append(
                f"{t.kind} agreeing at each level (of {asked} asked): {levels}"
                f" (a run fails at: {report.fail_on})"
            )
    return "\n".join(lines)


def example_lines(outcome: Outcome, engine: str) -> list[str]:
    """The request of a finding as a line to paste, and the answer expected."""
    finding = outcome.findings[0]
    lines = []
    if finding.request is not None:
        request = dumps(
            {
                "type": finding.request.get("type"),
                "id": 1,
                **{k: v for k, v in finding.request.items() if k != "type"},
            }
        )
        lines.append(f"echo {shlex.quote(request)} | {engine}")
    if finding.expected is not None:
        lines.append(f"expected: {dumps({'id': 1, **finding.expected})}")
    return lines


def grouped(report: RunReport, engine: str, show: int) -> str:
    """The disagreements and failures, one block a group, ``show`` groups in full."""
    found = groups(report.outcomes, report.fail_on)
    if not found:
        return ""
    total = sum(len(g.outcomes) for g in found)
    lines = [
        f"{total} vectors did not agree, in {len(found)} group(s), those failing the run first, "
        "largest first:"
    ]
    for number, group in enumerate(found[:show], 1):
        example = group.example
        counted = "" if example.counts_at(report.fail_on) else f" (not failing at {report.fail_on})"
        lines += [
            "",
            f"[{number}] {group.signature}: {len(group.outcomes)} vector(s){counted}",
            f"  smallest: {example.kind} {example.vector} ({example.pins})",
        ]
        lines += [f"  - {f.text}" for f in example.findings[:4]]
        divide = report.divides.get(example.vector) if example.kind == "claims" else None
        if divide is not None:
            lines += [f"  {line}" for line in divide.lines()]
        lines += [f"  {line}" for line in example_lines(example, engine)]
        others = [o.vector for o in group.outcomes if o is not example]
        if others:
            more = " ..." if len(others) > 10 else ""
            lines.append(f"  also: {' '.join(others[:10])}{more}")
    rest = found[show:]
    if rest:
        lines.append(
            f"\n{len(rest)} more group(s), {sum(len(g.outcomes) for g in rest)} vector(s): "
            "see --report FILE"
        )
    return "\n".join(lines)


def verdict(report: RunReport) -> str:
    """The last line: PASS or FAIL, what was covered and how much agreed."""
    claimed = sum(t.vectors - t.not_claimed for t in report.tallies)
    agreed = sum(t.agreed for t in report.tallies)
    not_claimed = sum(t.not_claimed for t in report.tallies)
    covered = report.capabilities.describe()
    rest = f"; {not_claimed} not claimed" if not_claimed else ""
    if report.stopped == NOTHING_CHECKED:
        return (
            f"INCOMPLETE: nothing was checked: no vector asked is within what the engine "
            f"declares ({covered}){rest}; a run that checks nothing does not pass"
        )
    if not report.complete:
        return (
            f"INCOMPLETE: the run could not be done ({report.stopped or 'the engine failed'}); "
            f"{agreed}/{claimed} vectors agree ({report.engine}){rest}"
        )
    head = f"PASS: conformant on {covered}" if report.ok else f"FAIL on {covered}"
    return f"{head}: {agreed}/{claimed} vectors agree ({report.engine}){rest}"


def closing_line(report: RunReport) -> str:
    """``N passed, N failed, N errored, N skipped``: the run's last line, as CommonMark's spec
    tests and toml-test end theirs (skipped: not claimed, skipped by a file, or not run)."""
    passed = sum(t.agreed for t in report.tallies)
    failed = sum(t.disagreed for t in report.tallies)
    errored = sum(t.failed for t in report.tallies)
    skipped = sum(t.vectors for t in report.tallies) - passed - failed - errored
    return f"{passed} passed, {failed} failed, {errored} errored, {skipped} skipped"


def summary(report: RunReport) -> list[str]:
    """Lines about the run itself: restarts, stray output, the failure that stopped it."""
    lines = []
    if report.restarts:
        lines.append(f"the engine was started again {report.restarts} time(s) after a failure")
    if report.stray_lines:
        lines.append(
            f"{report.stray_lines} line(s) of the engine's standard output were not answers and "
            f"were skipped, such as: {'; '.join(report.stray_examples)}"
        )
    if report.failure is not None:
        lines.append(
            f"ENGINE {report.failure.what.upper()} at {report.failed_vector}: {report.failure}"
        )
    if report.stopped == "interrupted":
        lines.append("the run was interrupted: the vectors not asked are counted as not run")
    return lines


# -- files -------------------------------------------------------------------------------------


def report_lines(report: RunReport) -> str:
    """One JSON line a vector that did not agree: kind, id, status, signature, problems, and
    the first exchange that shows it (request, expected, answer); for a claim taken apart, its
    divide (:mod:`~schotten.conformance.divide`)."""
    lines = []
    for outcome in report.outcomes:
        finding = outcome.findings[0] if outcome.findings else None
        divide = report.divides.get(outcome.vector) if outcome.kind == "claims" else None
        lines.append(
            dumps(
                {
                    "kind": outcome.kind,
                    "vector": outcome.vector,
                    "status": outcome.status,
                    "level": outcome.level,
                    "counts": outcome.counts_at(report.fail_on),
                    "signature": outcome.signature,
                    "problems": [f.text for f in outcome.findings],
                    "request": finding.request if finding else None,
                    "expected": finding.expected if finding else None,
                    "answer": finding.answer if finding else None,
                    **({"divide": divide.data()} if divide is not None else {}),
                }
            )
        )
    return "".join(line + "\n" for line in lines)


def read_report(path: Path) -> dict[str, set[str]]:
    """The vectors of an earlier ``--report`` file, by kind (``--rerun``)."""
    data = read_regular_file(path, MAX_REPORT_BYTES)
    found: dict[str, set[str]] = {}

    def not_json(number: int, error: json_input.JsonInputError) -> Exception:
        return InputFileError(path, f"line {number}: {error}", number)

    for number, item in json_lines(data, not_json):
        kind, ident = (item.get("kind"), item.get("vector")) if isinstance(item, dict) else (0, 0)
        if not isinstance(kind, str) or not isinstance(ident, str):
            raise InputFileError(
                path, f"line {number}: not a line of a report (kind, vector)", number
            )
        found.setdefault(kind, set()).add(ident)
    return found


def junit(report: RunReport) -> str:
    """JUnit XML: a test suite a kind, a test case a vector: asked, or skipped (not claimed or
    not run, by id when it was read, else numbered), so that the counts add up."""
    by_vector = {(o.kind, o.vector): o for o in report.outcomes}
    root = ET.Element("testsuites", name=f"schotten conformance: {report.engine}")
    for tally in report.tallies:
        skipped = tally.vectors - len(tally.asked)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=tally.kind,
            tests=str(tally.vectors),
            failures=str(tally.disagreed),
            errors=str(tally.failed),
            skipped=str(skipped),
        )
        for ident in tally.asked:
            case = ET.SubElement(suite, "testcase", classname=tally.kind, name=ident)
            outcome = by_vector.get((tally.kind, ident))
            if outcome is None or not outcome.counts_at(report.fail_on):
                continue
            tag = "failure" if outcome.status == "disagree" else "error"
            element = ET.SubElement(case, tag, message=outcome.signature, type=outcome.status)
            element.text = "\n".join(f.text for f in outcome.findings)
        names = [*tally.passed_over, *(f"#{n}" for n in range(len(tally.passed_over), skipped))]
        for ident in names[:skipped]:
            case = ET.SubElement(suite, "testcase", classname=tally.kind, name=ident)
            ET.SubElement(case, "skipped", message="not claimed or not run")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
