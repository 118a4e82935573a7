"""The GitHub gate: the workflow as GitHub reads it (jobs, groups, steps, permissions), the one gate
script every runner uses, run as a user who is not root, its annotations and the verdict diff of a
pull request."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
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
# The action majors that run on GitHub's current runtime (Node 24).
MAJORS = {
    "actions/checkout": "v6",
    "actions/setup-python": "v6",
    "actions/setup-node": "v6",
    "actions/cache": "v5",
    "actions/configure-pages": "v5",
    "actions/upload-artifact": "v6",
    "actions/upload-pages-artifact": "v4",
    "actions/deploy-pages": "v4",
}


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
    assert workflow["permissions"] == {"contents": "read"}
    assert list(workflow["jobs"]) == ["verdicts", "build", "deploy"]


def test_builds_are_grouped_per_ref_and_only_deploys_share_the_pages_group(
    workflow: dict[str, Any],
) -> None:
    group = workflow["concurrency"]
    assert group["group"] == "${{ github.workflow }}-${{ github.ref }}"
    assert group["cancel-in-progress"] == "${{ github.event_name == 'pull_request' }}"
    jobs = workflow["jobs"]
    assert jobs["deploy"]["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    assert "concurrency" not in jobs["verdicts"] and "concurrency" not in jobs["build"]


def test_each_job_has_a_timeout_and_the_least_permissions(workflow: dict[str, Any]) -> None:
    jobs = workflow["jobs"]
    assert all(0 < job["timeout-minutes"] <= 30 for job in jobs.values())
    assert "permissions" not in jobs["verdicts"]
    assert jobs["build"]["permissions"] == {"contents": "read", "pages": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert jobs["deploy"]["if"] == (
        "github.event_name != 'pull_request' && github.ref == 'refs/heads/main'"
    )
    assert jobs["deploy"]["needs"] == "build" and jobs["build"]["needs"] == "verdicts"


def test_the_verdict_gate_comes_first_and_every_check_is_the_gate_script(
    workflow: dict[str, Any],
) -> None:
    jobs = workflow["jobs"]
    first = [s["run"] for s in steps(jobs["verdicts"]) if "run" in s]
    assert first[1:] == ["scripts/gate verdicts", "scripts/gate lint"]
    runs = [s["run"] for job in jobs.values() for s in steps(job) if "run" in s]
    checks = [r for r in runs if re.search(r"\b(pytest|ruff|mypy|mkdocs|schotten check)\b", r)]
    assert checks == [], "checks are run through scripts/gate only"
    build = [s.get("run") for s in steps(jobs["build"])]
    assert build.index("scripts/gate tests -- -q") < build.index("scripts/gate build")


def test_actions_are_at_current_majors_and_tools_are_pinned(workflow: dict[str, Any]) -> None:
    used = [s["uses"] for job in workflow["jobs"].values() for s in steps(job) if "uses" in s]
    for action in used:
        name, _, major = action.partition("@")
        assert MAJORS.get(name) == major, action
    installs = [
        s["run"] for j in workflow["jobs"].values() for s in steps(j) if "pip" in s.get("run", "")
    ]
    assert installs and all("-c constraints.txt" in run for run in installs)
    assert "-c constraints.txt" in (ROOT / "scripts" / "setup").read_text(encoding="utf-8")
    pins = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    pinned = {line.split("==")[0].lower() for line in pins if "==" in line}
    assert {"mkdocs", "mkdocs-material", "ruff", "mypy", "playwright", "pytest"} <= pinned
    assert all("==" in line or line.startswith("#") for line in pins if line)


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


def test_a_pull_request_gets_the_verdict_diff_and_the_built_site(workflow: dict[str, Any]) -> None:
    build = steps(workflow["jobs"]["build"])
    summary = next(s for s in build if "GITHUB_STEP_SUMMARY" in s.get("run", ""))
    assert summary["if"] == "github.event_name == 'pull_request'"
    assert "python -m schotten.casebook.lockdiff" in summary["run"]
    artifact = next(s for s in build if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert artifact["with"]["path"] == "site" and artifact["if"] == summary["if"]
    pages = next(s for s in build if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert pages["if"] == "github.event_name != 'pull_request'"


def test_ci_run_test_and_publish_use_the_gate_script() -> None:
    assert "scripts/gate verdicts lint tests" in (ROOT / "scripts" / "test").read_text("utf-8")
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


# -- the gate script as a user who is not root -------------------------------------------------


def _tool_folder(folder: Path) -> str:
    """A folder with ``python`` and the gate's tools beside it, as setup-python gives them, that
    a user other than root can run: this interpreter when it can, else the system's, with this
    environment's packages."""
    bin_dir = Path(sys.executable).parent
    if os.geteuid() != 0:
        return str(bin_dir / "python")
    python = shutil.which("python3.11", path="/usr/bin:/usr/local/bin") or sys.executable
    paths = [sysconfig.get_paths()["purelib"], str(ROOT / "engine")]
    env_line = f'export PYTHONPATH="{os.pathsep.join(paths)}"'
    folder.mkdir()
    scripts = {
        "python": f'exec {python} "$@"',
        "mypy": f'exec {python} -m mypy "$@"',
        "schotten": f'exec {python} -c "from schotten.cli import entrypoint; entrypoint()" "$@"',
        "ruff": f'exec {python} -m ruff "$@"',
    }
    for name, line in scripts.items():
        path = folder / name
        path.write_text(f"#!/bin/sh\n{env_line}\n{line}\n", encoding="utf-8")
        path.chmod(0o755)
    return str(folder / "python")


@pytest.fixture
def copy_as_user() -> Iterator[tuple[Path, list[str], str]]:
    """A copy of the project owned by an ordinary user (``nobody`` when the tests run as root),
    the command prefix that runs as that user, and the interpreter the gate is given."""
    top = Path(tempfile.mkdtemp(prefix="gate-", dir="/tmp"))
    try:
        top.chmod(0o755)
        project = top / "project"
        files = subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        for name in files:
            source = ROOT / name
            if source.is_file() and not name.startswith("node_modules/"):
                (project / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, project / name)
        python = _tool_folder(top / "bin")
        prefix: list[str] = []
        if os.geteuid() == 0:
            subprocess.run(["chown", "-R", "nobody", str(project)], check=True)
            runuser = shutil.which("runuser", path="/usr/sbin:/sbin:/usr/bin:/bin")
            assert runuser is not None, "runuser (util-linux) runs the gate as nobody"
            prefix = [runuser, "-u", "nobody", "--"]
        yield project, prefix, python
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_the_gates_fast_part_runs_as_an_ordinary_user(
    copy_as_user: tuple[Path, list[str], str],
) -> None:
    project, prefix, python = copy_as_user
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(project),
        "PYTHON": python,
        "GITHUB_ACTIONS": "true",
        "LANG": "C.UTF-8",
    }
    who = subprocess.run([*prefix, "id", "-u"], capture_output=True, text=True, check=True)
    assert who.stdout.strip() != "0"
    run = subprocess.run(
        [*prefix, "bash", "scripts/gate", "fast"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "cases: " in run.stdout and "0 invalid" in run.stdout
    assert "Success: no issues found" in run.stdout

    # A changed verdict: the verdict step fails first, with an annotation on the line.
    case = project / "cases" / "hand-is-not-proof.yaml"
    text = case.read_text(encoding="utf-8").replace("reason: opponent-can-beat", "reason: weaker")
    subprocess.run([*prefix, "sh", "-c", f"cat > {case}"], input=text, text=True, check=True)
    run = subprocess.run(
        [*prefix, "bash", "scripts/gate", "fast"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 1
    assert "error: scripts/gate: the verdicts step failed" in run.stderr
    assert re.search(
        r"^::error file=cases/hand-is-not-proof\.yaml,line=\d+,col=\d+::", run.stdout, re.M
    )
    assert "lint and types" not in run.stdout


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
