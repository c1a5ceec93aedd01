"""Output of scenario runs: the JSON-ready dict of a report and the rich console views (memory on
vs off side by side, and per-scenario details)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.console import Console
from rich.table import Table

from memory_agent.evals.scenario_results import NODE_ORDER, STORE_PROBE_ID, ScenarioReport

__all__ = ["comparison_table", "render_comparison", "render_scenario_details", "report_to_dict"]


def _iso(d: datetime) -> str:
    return d.isoformat().replace("+00:00", "Z")


def report_to_dict(report: ScenarioReport) -> dict[str, Any]:
    """A JSON-ready dict of the report: summary (passed, share, per tag, memories stored, injected
    tokens, node latency in seconds) and every scenario with its sessions, live memories and probes."""
    passed, total = report.probes_passed()
    return {
        "mode": report.mode,
        "memory": report.memory,
        "source": report.source,
        "seconds": round(report.seconds, 3),
        "token_encoding": report.token_encoding,
        "summary": {
            "probes_passed": passed,
            "probes_total": total,
            "share": None if not total else round(passed / total, 4),
            "needing_memory": dict(zip(("passed", "total"), report.probes_passed(needs_memory=True), strict=True)),
            "not_needing_memory": dict(zip(("passed", "total"), report.probes_passed(needs_memory=False), strict=True)),
            "per_tag": {tag: {"passed": p, "total": t} for tag, (p, t) in report.per_tag().items()},
            "memories_stored": report.memories_stored(),
            "injected_tokens_per_probe": report.injected_tokens(),
            "node_latency_seconds": {n: {k: round(v, 5) if isinstance(v, float) else v for k, v in d.items()}
                                     for n, d in report.node_latency().items()},
        },
        "scenarios": [
            {
                "id": s.id, "tags": s.tags, "user_id": s.user_id, "error": s.error,
                "store_changed_by_probes": s.store_changed_by_probes,
                "passed": s.passed, "total": s.total, "seconds": round(s.seconds, 3),
                "live_after_sessions": {"count": len(s.live), "contents": s.live},
                "sessions": [
                    {"index": sess.index, "at": _iso(sess.at), "approve": sess.approve, "thread_id": sess.thread_id,
                     "remembered": sess.remembered, "superseded": sess.superseded, "retracted": sess.retracted,
                     "rejected": sess.rejected,
                     "turns": [{"at": _iso(t.at), "text": t.text, "answer": t.answer, "injected": t.injected,
                                "remembered": t.remembered, "superseded": t.superseded, "retracted": t.retracted,
                                "rejected": t.rejected, "dropped": t.dropped,
                                "node_seconds": {k: round(v, 5) for k, v in t.node_seconds.items()}}
                               for t in sess.turns]}
                    for sess in s.sessions
                ],
                "probes": [
                    {"id": p.id, "question": p.question, "user_id": p.user_id, "passed": p.passed,
                     "failed": p.failed, "needs_memory": p.needs_memory, "answer": p.answer,
                     "injected": p.injected, "injected_tokens": p.injected_tokens,
                     "node_seconds": {k: round(v, 5) for k, v in p.node_seconds.items()}}
                    for p in s.probes
                ],
            }
            for s in report.scenarios
        ],
    }


def _ratio(passed: int, total: int) -> str:
    return f"{passed}/{total} ({passed / total:.0%})" if total else "–"


def comparison_table(on: ScenarioReport, off: ScenarioReport, *, title: str | None = None) -> Table:
    """A rich table with memory on and memory off side by side: probes passed (overall and per tag),
    memories stored, injected-memory tokens per probe and node latency (median / p95, milliseconds)."""
    table = Table(title=title or "Scenario probes passed: memory on vs memory off", show_lines=False)
    table.add_column("", style="bold")
    table.add_column("memory on", justify="right")
    table.add_column("memory off", justify="right")
    table.add_row("probes passed (all)", _ratio(*on.probes_passed()), _ratio(*off.probes_passed()))
    table.add_row("  needing memory (injected_any / live_any)", _ratio(*on.probes_passed(needs_memory=True)),
                  _ratio(*off.probes_passed(needs_memory=True)))
    table.add_row("  not needing memory", _ratio(*on.probes_passed(needs_memory=False)),
                  _ratio(*off.probes_passed(needs_memory=False)))
    table.add_section()
    on_tags, off_tags = on.per_tag(), off.per_tag()
    for tag in sorted(set(on_tags) | set(off_tags)):
        table.add_row(f"  {tag}", _ratio(*on_tags.get(tag, (0, 0))), _ratio(*off_tags.get(tag, (0, 0))))
    table.add_section()
    on_stored, off_stored = on.memories_stored(), off.memories_stored()
    table.add_row("memories stored (total; max per scenario)",
                  f"{sum(on_stored.values())}; {max(on_stored.values(), default=0)}",
                  f"{sum(off_stored.values())}; {max(off_stored.values(), default=0)}")
    ton, toff = on.injected_tokens(), off.injected_tokens()
    table.add_row("injected tokens per probe (median; max)",
                  f"{ton['median']:g}; {ton['max']:g}", f"{toff['median']:g}; {toff['max']:g}")
    table.add_section()
    lat_on, lat_off = on.node_latency(), off.node_latency()
    for node in [n for n in NODE_ORDER if n in lat_on or n in lat_off] + \
            sorted((set(lat_on) | set(lat_off)) - set(NODE_ORDER)):
        cells = []
        for lat in (lat_on, lat_off):
            d = lat.get(node)
            cells.append(f"{d['median'] * 1000:.1f} / {d['p95'] * 1000:.1f} ms" if d else "–")
        table.add_row(f"latency {node} (median / p95)", *cells)
    return table


def render_comparison(on: ScenarioReport, off: ScenarioReport, console: Console) -> None:
    """Print :func:`comparison_table` and a note on what the memory-off column means."""
    console.print(comparison_table(on, off))
    console.print(
        "[dim]Memory off can pass only probes that need no memory (no injected_any check); store checks "
        f"count as a probe with memory on only. Tokens: {on.token_encoding}, over the contents of the "
        "memories injected per question probe. Latency: wall-clock milliseconds per graph node, over every "
        "session turn and probe.[/dim]", highlight=False
    )


def render_scenario_details(report: ScenarioReport, console: Console, *, show_dropped: bool = False) -> None:
    """Print, per scenario and session, what was remembered, superseded, retracted and rejected,
    then the live memories and each probe's verdict (failed checks spelled out)."""
    for s in report.scenarios:
        mark = "[green]✓[/green]" if s.passed == s.total and not s.error else "[red]✗[/red]"
        tags = ", ".join(s.tags)
        console.print(f"{mark} [bold]{s.id}[/bold] [dim]({tags}; user {s.user_id!r})[/dim] "
                      f"{s.passed}/{s.total} probes")
        if s.error:
            console.print(f"    [red]error: {s.error}[/red]", highlight=False)
        if s.store_changed_by_probes:
            console.print("    [red]warning: the probes changed the live memories (they must not)[/red]")
        for sess in s.sessions:
            parts = []
            parts += [f"[green]+ {c}[/green]" for c in sess.remembered]
            parts += [f"[yellow]~ {u['old']} → {u['new']}[/yellow]" for u in sess.superseded]
            parts += [f"[magenta]- {c}[/magenta]" for c in sess.retracted]
            parts += [f"[dim]rejected {r['operation']}: {r['content']}[/dim]" for r in sess.rejected]
            if show_dropped:
                parts += [f"[dim]dropped ({d['decision']}): {d['content']} — {d['reason']}[/dim]"
                          for t in sess.turns for d in t.dropped]
            console.print(f"    session {sess.index} ({_iso(sess.at)}, approve {sess.approve}):"
                          + ("" if parts else " nothing written"), highlight=False)
            for p in parts:
                console.print(f"        {p}", highlight=False)
        console.print(f"    live after sessions: {len(s.live)}", highlight=False)
        for p in s.probes:
            verdict = "[green]pass[/green]" if p.passed else "[red]FAIL[/red]"
            who = "" if p.user_id == s.user_id else f" as {p.user_id!r}"
            console.print(f"    {verdict} {p.id}{who}: {p.question}", highlight=False)
            if p.id != STORE_PROBE_ID and p.injected:
                console.print(f"        injected: {[_where(m) + str(m.get('content')) for m in p.injected]}",
                              highlight=False)
            for f in p.failed:
                console.print(f"        [red]· {f}[/red]", highlight=False)


def _where(item: dict) -> str:
    """``"[session/summary] "``: the prompt block an injected item came in, and its label there."""
    block = item.get("block", "memories")
    label = item.get("label") or item.get("kind")
    return f"[{block}/{label}] " if label else f"[{block}] "
