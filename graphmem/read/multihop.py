"""Multi-hop retrieval: up to 3 rounds; each round expands the query with the *bridge tags* of the facts
found so far (their tags the query did not have) and adds two rankings: tag votes of the bridge tags alone
(the hop) and the vector leg for the query plus bridge tags; it stops as soon as a round brings no new
unit into the top k."""

from __future__ import annotations

from collections.abc import Callable

from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.read.fusion import leg_weight
from graphmem.read.leg_run import LegRun
from graphmem.read.legs import match_tags, tag_vote_leg, vector_leg
from graphmem.read.legs.base import UnitRow
from graphmem.read.pipeline.config import LegSettings
from graphmem.text import normalize_tag


def bridge_tags(store: Store, space: str, fact_ids: list[str], known: set[str]) -> list[str]:
    """Tags of the facts whose normal form is not in `known`, in fact order."""
    if not fact_ids:
        return []
    rows = {r["id"]: r["tags"] for r in store.read("read/fact_tags", space=space, ids=fact_ids)}
    out: list[str] = []
    for fact_id in fact_ids:
        for tag in rows.get(fact_id, []):
            norm = normalize_tag(tag)
            if norm and norm not in known:
                known.add(norm)
                out.append(tag)
    return out


def expand_rounds(
    store: Store,
    embedder: Embedder,
    legs: LegSettings,
    space: str,
    run: LegRun,
    depth: int,
    k: int,
    rounds: int,
    rank: Callable[[LegRun], list[UnitRow]],
) -> int:
    """Add rankings for rounds 2..`rounds` to `run`; returns how many rounds ran (1 = no expansion).

    `rank` orders the run's candidates as the final ranking will, so bridges come from the real top k.
    """
    known = {normalize_tag(t) for t in run.plan.tags}
    top = [r.id for r in rank(run)[:k]]
    done = 1
    first_round_weight = sum(leg_weight(run.weights, r.leg) for r in run.rankings)
    for round_no in range(2, rounds + 1):
        facts = [r.id for r in rank(run)[:k] if r.kind == "semantic"]
        sources = set(facts)
        bridges = bridge_tags(store, space, facts, known)
        if not bridges:
            break
        expanded = f"{run.plan.query} {' '.join(bridges)}"
        vector = embedder.embed([expanded])[0]
        dense = vector_leg(store, space, vector, run.scope, run.kinds, depth, legs.vector_overfetch)
        dense.leg = f"vector@{round_no}"
        matches = match_tags(
            store,
            embedder,
            space,
            bridges,
            min_cosine=legs.tag_min_cosine,
            exact_weight=legs.tag_exact_weight,
            fuzzy_weight=legs.tag_fuzzy_weight,
        )
        votes = tag_vote_leg(
            store,
            space,
            vector,
            run.scope,
            matches,
            [r.id for r in dense.rows if r.kind == "semantic"],
            depth,
            legs.tag_dense_bonus,
        )
        # A hop ranks what the bridges reach, not the facts they came from.
        votes.rows = [r for r in votes.rows if r.id not in sources]
        votes.leg = f"tagvote@{round_no}"
        # Each round speaks with the voice of the whole first round, so what a hop finds can reach the top k.
        scale = first_round_weight / (leg_weight(run.weights, "vector") + leg_weight(run.weights, "tagvote"))
        run.weights[dense.leg] = leg_weight(run.weights, "vector") * scale
        run.weights[votes.leg] = leg_weight(run.weights, "tagvote") * scale
        run.rankings.extend([dense, votes])
        done = round_no
        new_top = [r.id for r in rank(run)[:k]]
        if set(new_top) <= set(top):
            break
        top = new_top
    return done
