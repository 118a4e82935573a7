"""The layers of the package, read from its imports (those inside functions too): the rules core
under the wings (casebook, conformance, verify), the wings under the site and the command, and
the in-page checker's imports free of the file system (they are shipped to the browser)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "engine" / "schotten"
WINGS = ("casebook", "conformance", "verify")
TOP = ("site", "cli", "bench")
# The file system, which the browser bundle must not need.
FILE_SYSTEM = {"schotten._files", "tempfile", "shutil", "glob", "pathlib"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    """0: the core; 1: a wing; 2: the site and the command."""
    parts = module.split(".")
    room = parts[1] if len(parts) > 1 else ""
    if room in TOP or module == "schotten.__main__":
        return 2
    if room in WINGS:
        return 1
    return 0


def imported(source: str, package: str) -> set[str]:
    """The modules a source imports, anywhere in it (lazy imports included); relative imports
    are resolved from ``package``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # ``from schotten.cli import conformance``: a module of the package, when it is one.
            found.update(f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES)
    return found


@cache
def imports(module: str) -> frozenset[str]:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return frozenset(imported(path.read_text(encoding="utf-8"), package))


def inner(module: str) -> set[str]:
    return {m for m in imports(module) if m in MODULES}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_imports_only_its_own_layer_or_below(module: str) -> None:
    upward = sorted(m for m in inner(module) if layer(m) > layer(module))
    assert not upward, f"{module} (layer {layer(module)}) imports {upward}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m) == 1))
def test_no_wing_imports_another_wings_command_or_the_command(module: str) -> None:
    assert not any(m == "schotten.cli" or m.startswith("schotten.cli.") for m in inner(module))


def closure(module: str) -> set[str]:
    seen: set[str] = set()
    todo = [module]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        # Importing a module runs its package's __init__ first.
        parents = [".".join(current.split(".")[:i]) for i in range(1, current.count(".") + 1)]
        todo += [m for m in (*inner(current), *parents) if m in MODULES]
    return seen


def test_the_checkers_imports_use_no_file_system() -> None:
    reached = closure("schotten.checker")
    assert "schotten.checker" in reached and "schotten.position" in reached
    used = {m for module in reached for m in imports(module) if m in FILE_SYSTEM}
    assert not used, f"the in-page checker's imports reach {sorted(used)}"
    assert all(layer(m) == 0 for m in reached)


def test_the_layers_test_sees_lazy_and_relative_imports() -> None:
    source = "def f():\n    from schotten.cli import main\n    from ..site import labels\n"
    found = imported(source, "schotten.casebook")
    assert {"schotten.cli", "schotten.site"} <= found
    assert layer("schotten.casebook.run") < layer("schotten.cli") == layer("schotten.site.gate")
    assert any(layer(m) > layer("schotten.casebook.run") for m in found if m in MODULES)


def test_engine_modules_import_each_other_without_a_cycle() -> None:
    """Every ``schotten.*`` import of the engine core, deferred ones included, forms no cycle
    (``game`` and ``position_data`` used to import each other)."""
    import ast
    from pathlib import Path

    import schotten

    root = Path(schotten.__file__).parent
    graph: dict[str, set[str]] = {}
    for path in root.glob("*.py"):
        name = f"schotten.{path.stem}"
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                graph[name] |= {t for t in targets if (root / f"{t[9:]}.py").exists()}
    graph.pop("schotten.__init__", None)
    for edges in graph.values():
        edges.discard("schotten.__init__")

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, " -> ".join((*path, node))
        for target in graph.get(node, ()):
            visit(target, (*path, node))

    for module in graph:
        visit(module, ())


TESTS = Path(__file__).resolve().parent
# The modules of the rules core itself, not of its sub-packages.
CORE = sorted(m for m in MODULES if layer(m) == 0 and m.count(".") == 1)


@pytest.mark.parametrize("module", CORE)
def test_every_core_module_has_a_test_file_of_its_own_that_imports_it(module: str) -> None:
    """``schotten.<name>`` is tested in ``tests/test_<name>.py`` (``_files``: ``test_files.py``)."""
    name = module.rpartition(".")[2].lstrip("_")
    path = TESTS / f"test_{name}.py"
    assert path.is_file(), f"{module} has no test file of its own: tests/{path.name}"
    assert module in imported(path.read_text(encoding="utf-8"), "tests"), f"{path.name}"


def test_the_core_modules_are_the_files_directly_in_the_package() -> None:
    assert "schotten.board" in CORE and "schotten._files" in CORE
    assert not {"schotten", "schotten.__main__", "schotten.cli", "schotten.casebook"} & set(CORE)
    assert not [m for m in CORE if m.count(".") > 1]
