"""The GitHub gate: the workflow as GitHub reads it (jobs, groups, steps, permissions), the one gate
script every runner uses (run whole by a user who is not root: tests/test_gate_as_user.py), its
annotations and the verdict diff of a pull request."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from schotten.casebook.errors import github_annotation
from schotten.casebook.lock import read_lock
from schotten.casebook.lockdiff import lock_diff, markdown
from schotten.cli import EXIT_FAILED, EXIT_OK, main

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "publish.yml"
DEPENDABOT = ROOT / ".github" / "dependabot.yml"
# The action majors that run on GitHub's current runtime (Node 24), each pinned by commit.
MAJORS = {
    "actions/checkout": "v7",
    "actions/setup-python": "v7",
    "actions/setup-node": "v7",
    "actions/cache": "v5",
    "actions/configure-pages": "v5",
    "actions/upload-artifact": "v7",
    "actions/upload-pages-artifact": "v5",
    "actions/deploy-pages": "v5",
    "dorny/paths-filter": "v4",
}
PINNED = re.compile(r"^\s*(?:- )?uses: ([\w.-]+/[\w.-]+)@([0-9a-f]{40}) # (v\d+)(?:\.\d+)*$")


@pytest.fixture(scope="module")
def workflow() -> dict[str, Any]:
    # PyYAML reads the key `on` as True (YAML 1.1): GitHub reads it as "on".
    data: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    data["on"] = data.pop(True)
    return data


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = job["steps"]
    return found


def test_the_workflow_runs_on_pushes_to_main_and_pull_requests(workflow: dict[str, Any]) -> None:
    assert workflow["on"]["push"]["branches"] == ["main"]
    assert "pull_request" in workflow["on"]
    assert workflow["permissions"] == {}
    assert list(workflow["jobs"]) == ["verdicts", "changes", "engine", "package", "build", "deploy"]


def test_builds_are_grouped_per_ref_and_only_deploys_share_the_pages_group(
    workflow: dict[str, Any],
) -> None:
    group = workflow["concurrency"]
    assert group["group"] == "${{ github.workflow }}-${{ github.ref }}"
    assert group["cancel-in-progress"] == "${{ github.event_name == 'pull_request' }}"
    jobs = workflow["jobs"]
    assert jobs["deploy"]["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    assert [name for name, job in jobs.items() if "concurrency" in job] == ["deploy"]
    # The comment says what GitHub does: a waiting run is replaced, main's running one is not.
    text = re.sub(r"\n# ?", " ", WORKFLOW.read_text(encoding="utf-8"))
    assert "a newer run replaces (cancels) the one waiting" in text
    assert "on main it finishes" in text


def test_each_job_has_a_timeout_and_the_least_permissions(workflow: dict[str, Any]) -> None:
    jobs = workflow["jobs"]
    assert all(0 < job["timeout-minutes"] <= 30 for job in jobs.values())
    read = {"contents": "read"}
    for name in ("verdicts", "engine", "package"):
        assert jobs[name]["permissions"] == read, name
    assert jobs["changes"]["permissions"] == {"pull-requests": "read"}
    assert jobs["build"]["permissions"] == {"contents": "read", "pages": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert jobs["deploy"]["if"] == (
        "github.event_name != 'pull_request' && github.ref == 'refs/heads/main'"
    )
    assert jobs["deploy"]["needs"] == ["build", "engine", "package"]
    assert jobs["build"]["needs"] == ["verdicts", "changes"]
    assert jobs["engine"]["needs"] == jobs["package"]["needs"] == "verdicts"


def test_every_checkout_drops_its_credentials(workflow: dict[str, Any]) -> None:
    checkouts = [
        s
        for job in workflow["jobs"].values()
        for s in steps(job)
        if s.get("uses", "").startswith("actions/checkout@")
    ]
    assert len(checkouts) == 5
    assert all(s["with"]["persist-credentials"] is False for s in checkouts)


def test_the_verdict_gate_comes_first_and_every_check_is_the_gate_script(
    workflow: dict[str, Any],
) -> None:
    jobs = workflow["jobs"]
    first = [s["run"] for s in steps(jobs["verdicts"]) if "run" in s]
    gate = [r for r in first if r.startswith("scripts/gate")]
    assert gate == ["scripts/gate verdicts", "scripts/gate lint", "scripts/gate workflow"]
    runs = [s["run"] for job in jobs.values() for s in steps(job) if "run" in s]
    checks = [r for r in runs if re.search(r"\b(pytest|ruff|mypy|mkdocs|schotten check)\b", r)]
    assert checks == [], "checks are run through scripts/gate only"
    build = [s.get("run") for s in steps(jobs["build"])]
    assert build.index("scripts/gate heavy -- -q") < build.index("scripts/gate build")
    engine = jobs["engine"]
    assert engine["strategy"]["matrix"]["python"] == ["3.11", "3.12", "3.13"]
    assert "scripts/gate core -- -q" in [s.get("run") for s in steps(engine)]


def test_the_verdict_summary_is_written_first_on_red_runs_too(workflow: dict[str, Any]) -> None:
    first = steps(workflow["jobs"]["verdicts"])
    summary = next(i for i, s in enumerate(first) if "GITHUB_STEP_SUMMARY" in s.get("run", ""))
    gate = next(i for i, s in enumerate(first) if s.get("run") == "scripts/gate verdicts")
    assert summary < gate
    assert first[summary]["if"] == "${{ !cancelled() && github.event_name == 'pull_request' }}"
    assert "python -m schotten.casebook.lockdiff" in first[summary]["run"]


def test_actions_are_pinned_by_commit_at_current_majors_and_tools_are_pinned(
    workflow: dict[str, Any],
) -> None:
    lines = [x for x in WORKFLOW.read_text(encoding="utf-8").splitlines() if "uses:" in x]
    assert lines
    for line in lines:
        pinned = PINNED.match(line)
        assert pinned is not None, line
        assert MAJORS.get(pinned[1]) == pinned[3], line
    installs = [
        s["run"] for j in workflow["jobs"].values() for s in steps(j) if "pip" in s.get("run", "")
    ]
    installs = [r for r in installs if "pip install" in r and "dist/" not in r]
    assert installs and all("-c constraints.txt" in run for run in installs)
    assert "-c constraints.txt" in (ROOT / "scripts" / "setup").read_text(encoding="utf-8")
    pins = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    pinned_tools = {line.split("==")[0].lower() for line in pins if "==" in line}
    tools = {"mkdocs", "mkdocs-material", "ruff", "mypy", "playwright", "pytest", "pytest-xdist"}
    assert tools | {"zizmor", "build", "twine"} <= pinned_tools
    assert all("==" in line or line.startswith("#") for line in pins if line)


def test_updates_come_for_actions_python_tools_and_npm() -> None:
    config = yaml.safe_load(DEPENDABOT.read_text(encoding="utf-8"))
    updates = {u["package-ecosystem"]: u for u in config["updates"]}
    assert sorted(updates) == ["github-actions", "npm", "pip"]
    assert all(u["directory"] == "/" for u in updates.values())


def test_playwright_is_cached_and_the_site_address_comes_from_pages(
    workflow: dict[str, Any],
) -> None:
    build = steps(workflow["jobs"]["build"])
    cache = next(s for s in build if s.get("uses", "").startswith("actions/cache@"))
    assert cache["with"]["path"] == "~/.cache/ms-playwright"
    pages = next(s for s in build if s.get("uses", "").startswith("actions/configure-pages@"))
    site = next(s for s in build if s.get("run") == "scripts/gate build")
    assert f"steps.{pages['id']}.outputs.base_url" in site["env"]["SITE_URL"]
    assert "--with-deps chromium" in next(
        s["run"] for s in build if "playwright" in s.get("run", "")
    )


def test_docs_only_changes_skip_the_browser_tests(workflow: dict[str, Any]) -> None:
    jobs = workflow["jobs"]
    (step,) = steps(jobs["changes"])
    assert step["if"] == "github.event_name == 'pull_request'"
    filters = yaml.safe_load(step["with"]["filters"])["browser"]
    assert step["with"]["predicate-quantifier"] == "every"
    assert filters[0] == "**" and "!*.md" in filters and "!**/README.md" in filters
    assert "!site_src/**" not in filters  # the pages are the site
    assert "SKIP_BROWSER" in jobs["build"]["env"]
    gate = (ROOT / "scripts" / "gate").read_text(encoding="utf-8")
    assert '"${SKIP_BROWSER:-}" = 1' in gate


def test_the_package_is_built_checked_and_run_bare(workflow: dict[str, Any]) -> None:
    runs = "\n".join(s.get("run", "") for s in steps(workflow["jobs"]["package"]))
    for command in (
        "python -m build",
        "twine check --strict dist/*",
        'python -m venv "$RUNNER_TEMP/bare"',
        "bare/bin/schotten --help",
        "bare/bin/schotten conformance run",
        "schotten conformance serve",
    ):
        assert command in runs, command


def test_a_pull_request_gets_the_built_site(workflow: dict[str, Any]) -> None:
    build = steps(workflow["jobs"]["build"])
    artifact = next(s for s in build if s.get("with", {}).get("name") == "site")
    assert artifact["with"]["path"] == "site"
    assert artifact["if"] == "github.event_name == 'pull_request'"
    pages = next(s for s in build if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert pages["if"] == "github.event_name != 'pull_request'"


def test_ci_run_test_and_publish_use_the_gate_script() -> None:
    test = (ROOT / "scripts" / "test").read_text("utf-8")
    assert "scripts/gate verdicts lint workflow tests" in test
    assert "scripts/gate verdicts lint quick" in test
    assert 'exec bash scripts/test -q "$@"' in (ROOT / ".ci" / "run").read_text("utf-8")
    from schotten.site.publish import gate_command

    assert gate_command(ROOT)[1:] == [
        str(ROOT / "scripts" / "gate"),
        "verdicts",
        "lint",
        "tests",
        "--",
        "-q",
    ]


def test_an_unknown_step_is_a_usage_error() -> None:
    run = subprocess.run(
        ["bash", str(ROOT / "scripts" / "gate"), "deploy"], capture_output=True, text=True
    )
    assert run.returncode == 2 and "unknown step 'deploy'" in run.stderr


# -- annotations and the verdict diff ----------------------------------------------------------


def test_check_annotations_name_the_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(ROOT / "tests" / "data" / "cases" / "valid", tmp_path / "cases")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "cases", "--annotations"]) == EXIT_OK
    assert "::error" not in capsys.readouterr().out
    published = (tmp_path / "cases" / "three-adjacent.yaml").read_text("utf-8")
    stale = re.sub(r"(?m)^published: .*\n", "", published).replace("won-by-you", "ongoing")
    (tmp_path / "cases" / "regression.yaml").write_text(stale, "utf-8")
    (tmp_path / "cases" / "bad.yaml").write_text("situation: [\n", encoding="utf-8")
    assert main(["check", "cases", "--annotations"]) == EXIT_FAILED
    lines = [x for x in capsys.readouterr().out.splitlines() if x.startswith("::error")]
    assert any(x.startswith("::error file=cases/bad.yaml,line=2,col=1::a list") for x in lines)
    pattern = r"::error file=cases/regression\.yaml,line=\d+,col=1::expect\.game: recorded ongoing"
    assert any(re.match(pattern, x) for x in lines), lines


def test_annotation_text_is_escaped() -> None:
    assert (
        github_annotation("a,b:c.yaml", 1, 2, "x%\ny")
        == "::error file=a%2Cb%3Ac.yaml,line=1,col=2::x%25%0Ay"
    )


def test_the_verdict_diff_of_a_flipped_and_a_new_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    base = tmp_path / "base"
    shutil.copytree(ROOT / "tests" / "data" / "cases" / "valid", base)
    head = tmp_path / "cases"
    shutil.copytree(base, head)
    case = head / "hand-is-not-proof.yaml"
    case.write_text(
        case.read_text("utf-8")
        .replace("hands:\n  you: [orange 3]\n", "")
        .replace("you: [blue 3, purple 3]", "you: [blue 3, purple 3, orange 3]")
        .replace("claim: [4]\n", "  2:\n    opponent: [purple 9]\nclaim: [4]\n"),
        "utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["approve", "cases"]) == EXIT_OK
    old, new = read_lock(base), read_lock(head)
    assert old is not None and new is not None
    rows = lock_diff(old, new)
    assert rows == [
        [
            "`hand-is-not-proof`",
            "faq row 1",
            "stone 4: refused (opponent-can-beat) witness orange 3 -> granted (unbeatable)",
            "to re-read: situation.es, situation.fr, why.es, why.fr",
        ]
    ]
    del old["hand-is-not-proof"]
    text = markdown(lock_diff(old, new))
    assert "| `hand-is-not-proof` | faq row 1 | published: stone 4: granted | new |" in text
    assert markdown([]).endswith("No published verdict changes.\n")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "schotten.casebook.lockdiff",
            str(tmp_path / "none" / "published.lock.json"),
            str(head / "published.lock.json"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0 and run.stdout.count("| new |") == 2
