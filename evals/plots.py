"""PNG plots of eval results (matplotlib, Agg backend: no display needed).

Each function takes the JSON-ready dict an eval writes to ``results.json`` and a path, draws one
figure and returns the path written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["plot_locomo_qa", "plot_recall_curves", "plot_scenarios"]


def _pyplot():
    """matplotlib's pyplot on the Agg backend.

    Raises:
        ImportError: matplotlib is not installed (it comes with the optional extra ``evals``).
    """
    try:
        import matplotlib  # lazy: optional third-party library (extra ``evals``)
    except ImportError as exc:
        raise ImportError("Plotting eval results needs matplotlib: pip install 'memory-agent[evals]'") from exc

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy, after choosing the backend

    return plt


def plot_scenarios(on: dict[str, Any], off: dict[str, Any], path: Path, title: str = "") -> Path:
    """Bars of the share of probes passed per tag (and overall), memory on vs off.

    Args:
        on, off: :func:`memory_agent.evals.scenario_report.report_to_dict` of the memory-on and memory-off runs.
        path: the PNG to write.
    """
    plt = _pyplot()
    tags = sorted(set(on["summary"]["per_tag"]) | set(off["summary"]["per_tag"]))
    labels = ["all"] + tags

    def shares(rep):
        s = rep["summary"]
        out = [s["probes_passed"] / s["probes_total"] if s["probes_total"] else 0.0]
        for t in tags:
            d = s["per_tag"].get(t, {"passed": 0, "total": 0})
            out.append(d["passed"] / d["total"] if d["total"] else 0.0)
        return out

    fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(labels) + 2), 4))
    xs = range(len(labels))
    ax.bar([x - 0.2 for x in xs], shares(on), width=0.4, label="memory on")
    ax.bar([x + 0.2 for x in xs], shares(off), width=0.4, label="memory off")
    ax.set_xticks(list(xs), labels, rotation=45, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("share of probes passed")
    ax.set_title(title or "Scenario probes passed per tag: memory on vs off")
    ax.legend()
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_recall_curves(results: dict[str, Any], path: Path, title: str = "") -> Path:
    """recall@k against k (1, 5, 10, 20, 50) for each retriever of a LoCoMo retrieval run.

    Args:
        results: :meth:`memory_agent.evals.locomo_retrieval.RetrievalReport.to_dict`.
        path: the PNG to write.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, summary in results["summary"].items():
        overall = summary["overall"]
        ks = sorted(int(k.split("@")[1]) for k in overall if k.startswith("recall@"))
        ax.plot(ks, [overall[f"recall@{k}"] for k in ks], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_xticks([1, 5, 10, 20, 50], ["1", "5", "10", "20", "50"])
    ax.set_ylim(0, 1)
    ax.set_xlabel("k")
    ax.set_ylabel("evidence recall@k")
    ax.grid(alpha=0.3)
    ax.set_title(title or f"LoCoMo evidence recall@k ({results['questions']} questions, categories 1–4)")
    ax.legend()
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_locomo_qa(results: dict[str, Any], path: Path, title: str = "") -> Path:
    """Mean token F1 per category, memory on vs off (:meth:`memory_agent.evals.locomo_qa.QAReport.to_dict`)."""
    plt = _pyplot()
    per = results["summary"]["per_category"]
    cats = list(per)
    labels = [f"{per[c]['name']}\n({per[c]['questions']})" for c in cats] + ["all"]
    on = [per[c].get("f1_on", 0.0) for c in cats] + [results["summary"]["overall"]["f1_on"]]
    off = [per[c].get("f1_off", 0.0) for c in cats] + [results["summary"]["overall"]["f1_off"]]
    on = [0.0 if v != v else v for v in on]  # NaN (no question) drawn as 0
    off = [0.0 if v != v else v for v in off]
    fig, ax = plt.subplots(figsize=(6, 4))
    xs = range(len(labels))
    ax.bar([x - 0.2 for x in xs], on, width=0.4, label="memory on")
    ax.bar([x + 0.2 for x in xs], off, width=0.4, label="memory off")
    ax.set_xticks(list(xs), labels)
    ax.set_ylabel("mean token F1")
    ax.set_title(title or f"LoCoMo QA, model {results['model']}")
    ax.legend()
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
