"""What the engine's worker imports in the browser, read from the sources: the engine modules its
entry points (the claim checker, the game of the « Jouer » page) reach, and the standard-library
modules those and Pyodide's own start-up import (:data:`LAZY`). :mod:`schotten.site.runtime`
ships exactly these.

>>> sorted(imported_modules("import json\\nfrom . import x\\nfrom collections.abc import Set"))
['collections.abc', 'collections.abc.Set', 'json']
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1]
# The engine's entry points in the browser (the claim checker, the « Jouer » page's game): the
# standard library follows from what they import.
ENTRIES = ("schotten.checker", "schotten.table_game")
# What Pyodide imports by name while it starts and answers (pyodide.asm.mjs, pyodide.mjs), and
# what runs lazily on that path (codecs looked up by name, the exception hook). The browser test
# starts the checker on this list and answers every published case.
LAZY = (
    "_pyodide",
    "_pyodide._base",
    "_pyodide._core_docs",
    "_pyodide._future_helper",
    "_pyodide._importhook",
    "_pyodide.docs_argspec",
    "_pyodide.docstring",
    "_pyodide.jsbind",
    "pyodide",
    "pyodide.ffi",
    "pyodide.code",
    "pyodide._package_loader",
    "importlib",
    "site",
    "traceback",
    "functools",
    "encodings",
    "encodings.aliases",
    "encodings.utf_8",
    "encodings.utf_8_sig",
    "encodings.ascii",
    "encodings.latin_1",
)

# Import statements, read as text: Pyodide's standard library is newer Python than the one that
# builds the site, so its sources cannot always be parsed here. Lines inside strings that look
# like imports only add modules: the result may be larger than needed, never smaller.
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w. \t,]+)", re.MULTILINE)
_FROM = re.compile(
    r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)", re.MULTILINE
)


def _names(text: str) -> list[str]:
    """``a as b, c`` -> ``['a', 'c']`` (comments and parentheses dropped)."""
    text = re.sub(r"#[^\n]*", "", text).strip("()")
    names = [part.split()[0] for part in text.replace("\\", " ").split(",") if part.split()]
    return [name for name in names if re.fullmatch(r"[\w.]+", name)]


# A line at column 0 opening a function or a class: the imports under it run later, if ever.
_DEFERRED = re.compile(r"(async[ \t]+def|def|class|@)\b|@")
# Pyodide's platform is "emscripten": a block for Windows alone never runs there (asyncio's
# Windows event loops, the Windows code pages).
_NOT_RUN = re.compile(
    r"if[ \t]+((typing\.)?TYPE_CHECKING\b|__name__[ \t]*==[ \t]*.__main__."
    r"|sys\.platform[ \t]*==[ \t]*.win32.[ \t]*:)"
)


def _executed_at_import(source: str) -> str:
    """The source without the blocks that do not run when the module is imported: bodies of
    functions and classes at top level, ``if TYPE_CHECKING:``, ``if __name__ ==
    "__main__":`` and ``if sys.platform == "win32":`` blocks. Lazy imports inside a
    function are left to the roots (see :data:`LAZY`), checked by the browser test."""
    kept: list[str] = []
    skipping = False
    for line in source.splitlines():
        if line[:1] not in ("", " ", "\t", "#", ")", "]", "}"):
            skipping = bool(_DEFERRED.match(line) or _NOT_RUN.match(line))
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


def imported_modules(source: str, package: str = "", *, lazy: bool = True) -> set[str]:
    """The absolute module names a Python source imports: anywhere in it (``lazy``, an
    over-estimate), or only in the code that runs when the module is imported.

    ``package`` resolves relative imports (``from . import x`` inside ``package``); names
    imported from a module (``from json import dumps``) are kept as possible submodules.
    """
    if not lazy:
        source = _executed_at_import(source)
    found: set[str] = set()
    for match in _IMPORT.finditer(source):
        found.update(_names(match.group(1)))
    for match in _FROM.finditer(source):
        dots, module, names = match.groups()
        if dots:
            parts = package.split(".") if package else []
            if not package or len(dots) - 1 > len(parts):
                continue
            base = ".".join(parts[: len(parts) - (len(dots) - 1)])
            module = f"{base}.{module}" if module else base
        if module:
            found.add(module)
            found.update(f"{module}.{name}" for name in _names(names))
    return found


def _module_name(path: str) -> tuple[str, bool] | None:
    """``a/b.py`` -> (``a.b``, False); ``a/__init__.py`` -> (``a``, True); not a module: None."""
    if not path.endswith(".py"):
        return None
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def stdlib_closure(full: zipfile.ZipFile, roots: Iterable[str]) -> set[str]:
    """The paths in ``full`` (Pyodide's standard library) of every module reachable from
    ``roots`` by import statements, with the packages that contain them."""
    modules: dict[str, tuple[str, bool]] = {}
    for path in full.namelist():
        named = _module_name(path)
        if named is not None:
            modules[named[0]] = (path, named[1])
    kept: set[str] = set()
    todo = list(roots)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        # A package is needed by each of its submodules.
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)
        if name not in modules:
            continue  # built in, frozen, or a name imported from a module: nothing to add
        path, is_package = modules[name]
        kept.add(path)
        package = name if is_package else parent
        todo.extend(imported_modules(full.read(path).decode("utf-8"), package, lazy=False))
    return kept


def engine_modules(entries: tuple[str, ...] = ENTRIES) -> dict[str, set[str]]:
    """The engine modules ``entries`` can reach, each with the other modules it imports anywhere
    (function bodies included). Only the package's top level is looked at: sub-packages such as
    ``site`` and ``casebook`` need more than the standard library and never reach the browser.
    """
    sources = {f"schotten.{path.stem}": path for path in sorted(ENGINE.glob("*.py"))}
    sources["schotten"] = sources.pop("schotten.__init__")
    reached: dict[str, set[str]] = {}
    todo = [*entries, "schotten"]
    while todo:
        name = todo.pop()
        if name in reached or name not in sources:
            continue
        source = sources[name].read_text(encoding="utf-8")
        reached[name] = imported_modules(source, "schotten")
        todo.extend(module for module in reached[name] if module.split(".")[0] == "schotten")
    return reached


def engine_sources(entries: tuple[str, ...] = ENTRIES) -> list[Path]:
    """The engine modules shipped to the browser: those ``entries`` can import (the command line
    and the pictures stay out)."""
    return sorted(
        ENGINE / ("__init__.py" if name == "schotten" else f"{name.removeprefix('schotten.')}.py")
        for name in engine_modules(entries)
    )


def engine_imports(entries: tuple[str, ...] = ENTRIES) -> set[str]:
    """The standard-library modules the engine can import from ``entries`` on: every import of
    every engine module it reaches (function bodies included), engine modules left out."""
    return {
        module
        for imports in engine_modules(entries).values()
        for module in imports
        if module.split(".")[0] != "schotten"
    }
