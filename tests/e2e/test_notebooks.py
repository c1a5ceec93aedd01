"""Every ``notebooks/*.ipynb`` runs top to bottom on the offline model, and is stored without outputs.

Each notebook runs with ``nbclient`` in a fresh kernel of *this* interpreter (ipykernel's built-in
``python3`` spec resolves to ``sys.executable``; kernels registered elsewhere on the machine are not
looked at), from the ``notebooks/`` folder, offline. A notebook's own ``assert`` cells are its checks.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="needs the dev extra: pip install -e '.[dev]'")
nbclient = pytest.importorskip("nbclient", reason="needs the dev extra: pip install -e '.[dev]'")
pytest.importorskip("ipykernel", reason="needs the dev extra: pip install -e '.[dev]'")

from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
CELL_TIMEOUT_SECONDS = 600


def test_the_quickstart_notebook_exists():
    assert NOTEBOOKS / "01_quickstart.ipynb" in PATHS


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_notebook_is_stored_without_outputs(path: Path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    dirty = [i for i, c in enumerate(nb.cells)
             if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count") is not None)]
    assert not dirty, (f"{path.name}: cells {dirty} have stored outputs; clear them before committing "
                       "(Jupyter: Edit → Clear Outputs of All Cells)")


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_notebook_runs_top_to_bottom(path: Path, monkeypatch):
    for name in [n for n in os.environ if n.startswith("MEMORY_AGENT_")]:
        monkeypatch.delenv(name)  # the notebook's settings are its own
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setenv("ANONYMIZED_TELEMETRY", "False")
    nb = nbformat.read(path, as_version=4)
    # Only ipykernel's native spec, i.e. this interpreter: CI's fresh .venv needs no registered kernel.
    specs = KernelSpecManager(kernel_dirs=[], ensure_native_kernel=True)
    km = KernelManager(kernel_name="python3", kernel_spec_manager=specs)
    client = nbclient.NotebookClient(nb, km=km, timeout=CELL_TIMEOUT_SECONDS, allow_errors=False,
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError naming the cell and its traceback
    ran = [c for c in nb.cells if c.cell_type == "code"]
    assert ran and all(c.get("execution_count") for c in ran), f"{path.name}: not every code cell ran"
