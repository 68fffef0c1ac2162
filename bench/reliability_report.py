"""Render docs/reliability.md from the figures the reliability tests wrote (`make reliability`).

Usage: python bench/reliability_report.py FIGURES_DIR OUTPUT.md COMMAND
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path


def _commit() -> str:
    """The checked-out commit (with '+changes' when the tree is dirty), or 'unknown' outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


HAND_KEPT = "## Hostile tenant"


def _hand_kept(output: Path) -> list[str]:
    """The hand-kept "Hostile tenant" section of the existing page (its counts come from many tests), kept as is."""
    if not output.exists():
        return []
    text = output.read_text(encoding="utf-8")
    start = text.find(HAND_KEPT)
    if start < 0:
        return []
    end = text.find("\n## ", start + len(HAND_KEPT))
    return [*text[start : end if end >= 0 else len(text)].rstrip("\n").split("\n"), ""]


def main(argv: list[str]) -> int:
    folder, output, command = Path(argv[0]), Path(argv[1]), argv[2]
    kept = _hand_kept(output)
    figures = {p.stem: json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))}
    cpus = len(os.sched_getaffinity(0))
    lines = [
        "# Reliability figures",
        "",
        f"Produced by `{command}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC at commit {_commit()}, "
        f"{platform.platform()}, {cpus} CPUs.",
        "Each section is written by the test named in it; rerun the command to refresh this page.",
        "",
    ]
    if "isolation" in figures:
        f = figures["isolation"]
        lines += ["## Tenant isolation (tests/e2e/test_isolation_property.py)", "",
                  f"- hypothesis cases run: **{f['cases']}** over {f['spaces']} random spaces",
                  f"- node ids returned and checked against their owning space: {f['ids_checked']}",
                  "- nodes of another space returned: **0**", ""]  # fmt: skip
    if "isolation_races" in figures:
        f = figures["isolation_races"]
        lines += ["## Concurrent writers of one id (tests/e2e/test_isolation_property.py)", "",
                  f"- races run: **{f['races']}** ({f['writers']} writers of one document id, random texts)",
                  "- races with more than one stored text, or a loser not told CONFLICT: **0**", ""]  # fmt: skip
    if "fuzz" in figures:
        f = figures["fuzz"]
        lines += ["## GraphQL fuzzing and hostile input (tests/e2e/test_fuzz_graphql.py)", "",
                  f"- schema-generated requests (valid and invalid): **{f['generated_requests']}**",
                  f"- 5xx responses: **{f['status_5xx']}**; leaked stack traces: **{f['leaked_traces']}**",
                  f"- nodes written by refused requests: **{f['nodes_written_by_refused_requests']}**", ""]  # fmt: skip
    if "faults" in figures:
        f = figures["faults"]
        lines += ["## Faults (tests/integration/test_reliability_faults.py)", "",
                  f"- faults injected: {f['faults_injected']} ({f['kind']}) during a {f['documents']}-document ingest "
                  f"in batches of {f['batch']}",
                  f"- documents present after restart: {f['survived_after_kill']} (whole batches only); "
                  f"half-written batches: **{f['half_written_batches']}**",
                  f"- rerun completed all {f['rerun_completed']} documents; duplicates: **{f['duplicates']}**",
                  "- a clean stop and restart kept every node, relationship, index and constraint (checksummed)",
                  ""]  # fmt: skip
    if "load" in figures:
        f = figures["load"]
        lines += ["## Load (tests/e2e/test_load.py)", "",
                  f"- {f['clients']} concurrent clients for {f['seconds']:.0f} s against one service on loopback: "
                  f"{f['requests']} requests, {f['throughput_rps']} req/s",
                  f"- errors: **{f['errors']}**; acknowledged writes: {f['acknowledged_writes']}; "
                  f"lost writes: **{f['lost_writes']}**",
                  "", "| operation | n | p50 ms | p95 ms | p99 ms |", "|---|---|---|---|---|"]  # fmt: skip
        for op, t in f["latency_ms"].items():
            lines.append(f"| {op} | {t['n']} | {t['p50']} | {t['p95']} | {t['p99']} |")
        lines.append("")
    for name, title in (("temporal", "histories"), ("temporal_erasure", "histories with erasures")):
        if name in figures:
            f = figures[name]
            lines += [f"## Temporal truth, {title} (tests/integration/test_temporal_property.py)", ""]
            if "skipped" in f:
                lines += [f"- skipped: {f['skipped']}", ""]
                continue
            lines += [f"- random histories applied to the service: **{f['histories']}** ({f['events']} events, "
                      f"{f['erasures']} erasures, {f['refused_writes_matched']} refused writes matched)",
                      f"- reads compared with the model (tests/support/temporal_model.py): {f['reads_compared']}",
                      f"- disagreements: **{f['disagreements']}**", ""]  # fmt: skip
    lines += kept
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(output.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
