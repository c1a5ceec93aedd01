"""CI smoke eval: memory on must beat memory off, on the example scenarios and one LoCoMo conversation.

    python -m memory_agent.evals.smoke [--scenarios FILE] [--locomo FILE] [--conversation conv-26] [--max-questions 30]

1. Replays the scenario file (default ``../shared/evals/scenarios_example.jsonl``) with memory on and
   off: fails unless more probes pass with memory on.
2. Replays one LoCoMo conversation into memory and asks its first questions of categories 1–4 with
   memory on and off (offline model): fails unless the mean gold-token recall (the share of the
   gold answer's tokens in the answer) is higher with memory on. Token F1 is printed but not the
   gate: the offline model restates whole memories, and F1's precision punishes long answers more
   than memory helps them (see the README's measured figures).

Paths default to ``../shared/`` relative to the working folder (the repository root in CI). Exit
codes: 0 memory on beat memory off in both, 1 it did not, 2 a file is missing. Results go to
``--out`` (default ``eval_results/smoke``). Full runs are the ``memory-agent eval`` commands.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from memory_agent.app.settings import Settings
from memory_agent.evals.locomo import load_locomo
from memory_agent.evals.runs import run_locomo_qa_eval, run_scenarios_eval

SHARED = Path("../shared")


def main(argv: list[str] | None = None) -> int:
    """Run the smoke eval; returns the exit code (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=Path, default=SHARED / "evals" / "scenarios_example.jsonl")
    parser.add_argument("--locomo", type=Path, default=SHARED / "datasets" / "locomo" / "locomo_dev.json")
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--max-questions", type=int, default=30)
    parser.add_argument("--out", type=Path, default=Path("eval_results") / "smoke")
    args = parser.parse_args(argv)

    console = Console(width=160)
    for path in (args.scenarios, args.locomo):
        if not path.is_file():
            console.print(f"[red]smoke eval: no file at {path} (expected the shared folder beside the repository)[/]")
            return 2
    settings = Settings.model_construct()  # offline model, MiniLM: no key, no network
    failures = []

    res = run_scenarios_eval(args.scenarios, settings, _mkdir(args.out / "scenarios"), console)
    on, off = res["memory_on"]["summary"]["probes_passed"], res["memory_off"]["summary"]["probes_passed"]
    console.print(f"scenarios: memory on {on} probes passed, memory off {off}")
    if not on > off:
        failures.append(f"scenarios: memory on passed {on} probes, memory off {off}")

    convs = [c for c in load_locomo(args.locomo) if c.sample_id == args.conversation]
    if not convs:
        console.print(f"[red]smoke eval: no conversation {args.conversation} in {args.locomo}[/]")
        return 2
    qa = run_locomo_qa_eval(convs, settings, _mkdir(args.out / "locomo-qa"), console, source=str(args.locomo),
                            max_questions=args.max_questions)
    overall = qa["summary"]["overall"]
    console.print(f"LoCoMo {args.conversation}: gold-token recall memory on {overall['recall_on']:.4f}, off "
                  f"{overall['recall_off']:.4f}; token F1 on {overall['f1_on']:.4f}, off {overall['f1_off']:.4f}")
    if not overall["recall_on"] > overall["recall_off"]:
        failures.append(f"LoCoMo QA: gold-token recall with memory {overall['recall_on']:.4f} is not above "
                        f"recall without {overall['recall_off']:.4f}")

    for f in failures:
        console.print(f"[red]smoke eval failed: {f}[/]")
    if not failures:
        console.print("smoke eval: memory on beat memory off on the scenarios and on LoCoMo")
    return 1 if failures else 0


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
