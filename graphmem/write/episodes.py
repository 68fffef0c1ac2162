"""Episodes (the PlugMem path): compile trajectories and chat sessions into the knowledge graph.

For each closed `Memory`:

1. The `Episode` node (kind `trajectory` | `chat`) and one `Episodic` per step (kind `step`) or turn (kind
   `turn`), chained by `NEXT` and linked `PART_OF` the episode; a step's `text` reads
   "Action: ... / Observation: ..."; a turn's is its words (embedded with the speaker in front).
2. Trajectories: the structurer gives each step a subgoal, reward, state and facts (from the observation
   *and* the action). Consecutive steps whose subgoals' cosine is below GRAPHMEM_SEGMENT_SPLIT_SIMILARITY
   (0.75) start a new segment; each segment yields one `Procedural` (the structurer's insight) with
   `return` = the mean of its steps' rewards, else the episode's `outcome`, else 0; `uses` 0. Its subgoal
   is clustered into a `Subgoal` node (>= GRAPHMEM_SUBGOAL_CLUSTER_SIMILARITY, via the subgoal vector
   index), `(Subgoal)-[:HAS_PROCEDURE]->(Procedural)-[:EVIDENCED_BY]->(Episodic)` for each step.
3. Facts: `(Semantic)-[:EVIDENCED_BY]->(Episodic)`, `(Tag)-[:TAGS]->(Semantic)` with tags de-duplicated
   (`graphmem.write.dedup`), `SIBLING` between every two facts of one step; `valid_from` = the step's time.
4. Ids are content-derived (episode id: the given id, else a digest of kind, goal, session, start and
   steps) and belong to the space, so an episode already in the space is skipped — counted, with no
   structurer call. The Episode keeps that digest as `content_hash`: the same id with other content is a
   `Conflict` naming `episodes[i].id`, also when a concurrent writer stored it first (the transaction rolls
   back); so is an episode or step id that already names a node of another kind in the space. Every step
   and turn is its own evidence unit (its id derives from the episode id and position), so no text is
   skipped for equalling another.
5. Writes: episodes are grouped (at most GRAPHMEM_INGEST_BATCH_SIZE episodes / ~`STEPS_PER_WRITE` steps);
   each group is embedded in one call and written in one transaction of batched `UNWIND` statements.

Bad records (`parse_episode`) are rejected by name; by default the other records are stored and the
rejections listed in the summary, with `strict=True` the first one raises before anything is written.
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.errors import Conflict, InvalidInput
from graphmem.ids import content_hash, content_id
from graphmem.model.nodes import STATUS_ACTIVE
from graphmem.text import normalize_tag
from graphmem.timeutil import FAR_FUTURE, utc_now
from graphmem.write.batch import GraphBatch, PendingFact, WriteConflict, caption, write_batch
from graphmem.write.dedup import SUBGOAL, resolve_keys
from graphmem.write.embedding import EVIDENCE, FACTS, PROCEDURES, SUBGOALS, CallEmbedder
from graphmem.write.memory import KIND_CHAT, Memory, parse_episode
from graphmem.write.staging import stage_tagged_facts
from graphmem.write.structurers import RuleStructurer, StepInput, StepStructure, Structurer, facts_from_text
from graphmem.write.summary import IngestSummary

STEPS_PER_WRITE = 2000
Progress = Callable[[int], None]


def said_by(author: str | None, text: str) -> str:
    """A chat turn as a transcript line, "Caroline: I ran a charity race.", naming the speaker once, also when
    the text already opens with its author's name and a colon (a pasted transcript)."""
    return f"{author}: {spoken_words(author, text)}" if author else text


def spoken_words(author: str | None, text: str) -> str:
    """A turn's text without a leading "Author:" that names its own speaker."""
    if author and text[: len(author) + 1].casefold() == f"{author}:".casefold():
        return text[len(author) + 1 :].lstrip()
    return text


def step_text(action: str, observation: str) -> str:
    """The readable combination stored as a step's `text`."""
    parts = []
    if action:
        parts.append(f"Action: {action}")
    if observation:
        parts.append(f"Observation: {observation}")
    return "\n".join(parts)


def _identity(memory: Memory) -> list[str]:
    steps = [[s.action, s.observation, s.author, s.at.isoformat() if s.at else None] for s in memory.steps]
    digest = content_hash(json.dumps(steps, ensure_ascii=False))
    started = memory.started_at.isoformat() if memory.started_at else ""
    return [memory.kind, memory.goal, memory.session_id or "", started, digest]


def episode_id(memory: Memory) -> str:
    """The given id, else a digest of what identifies the episode, so re-ingest finds it again."""
    if memory.id:
        return memory.id
    return content_id("episode", memory.space, *_identity(memory))


def episode_digest(memory: Memory) -> str:
    """What identifies the episode's content (kind, goal, session, start, steps), as `Episode.content_hash`."""
    return content_hash(json.dumps(_identity(memory), ensure_ascii=False))


def step_ids(memory: Memory, space: str, eid: str) -> list[str]:
    """The ids of an episode's steps (`step_...`) or turns (`turn_...`): derived from the episode id and position."""
    prefix = "turn" if memory.kind == KIND_CHAT else "step"
    return [content_id(prefix, space, eid, seq) for seq in range(len(memory.steps))]


def segment_starts(vectors: Sequence[Sequence[float] | None], threshold: float) -> list[int]:
    """Indexes where a new segment starts: the first step, and every step whose subgoal's cosine with the
    previous subgoal is below `threshold`. Steps without a subgoal stay in the current segment."""
    starts = [0] if vectors else []
    previous: np.ndarray | None = None
    for i, vector in enumerate(vectors):
        if vector is None:
            continue
        current = np.asarray(vector, dtype=np.float32)
        if previous is not None and float(current @ previous) < threshold:
            starts.append(i)
        previous = current
    return starts


@dataclass
class CompiledEpisode:
    """One episode's rows before embedding-dependent work (segments, subgoals) is done."""

    memory: Memory
    id: str
    step_ids: list[str]
    event_times: list[datetime]
    structures: list[StepStructure]
    started_at: datetime
    ended_at: datetime
    facts: list[PendingFact] = field(default_factory=list)


class EpisodeIngest:
    """One call of `ingest_episodes`: skip known episodes, structure, embed, resolve, write."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        settings: Settings,
        space: str,
        structurer: Structurer | None = None,
        *,
        progress: Progress | None = None,
    ) -> None:
        if not isinstance(space, str) or not space.strip():
            raise InvalidInput("space", "a space name is required")
        self.store, self.embedder, self.settings, self.space = store, embedder, settings, space
        self.structurer: Structurer = structurer or RuleStructurer()
        self.progress = progress
        self.summary = IngestSummary()
        self.vectors = CallEmbedder(embedder, self.summary, store, space)
        self.now = utc_now()
        self.seen: dict[str, str] = {}  # episode id -> content digest accepted earlier in this call

    # --- per episode -----------------------------------------------------------------------------
    def _compile(self, memory: Memory, eid: str) -> CompiledEpisode:
        start = memory.started_at or next((s.at for s in memory.steps if s.at), None) or self.now
        times: list[datetime] = []
        for step in memory.steps:
            start = step.at or start  # a step without a time happened at the last known time
            times.append(start)
        unit_ids = step_ids(memory, self.space, eid)
        compiled = CompiledEpisode(
            memory,
            eid,
            unit_ids,
            times,
            [StepStructure.empty() for _ in memory.steps],
            started_at=memory.started_at or times[0],  # the caller's Memory is not changed
            ended_at=memory.ended_at or times[-1],
        )
        if memory.kind == KIND_CHAT:
            if self.settings.derive_chat_facts:
                for seq, step in enumerate(memory.steps):
                    speaker = f"{step.author}: " if step.author else ""
                    drafts = facts_from_text(spoken_words(step.author, step.observation), prefix=speaker)
                    compiled.facts.extend(
                        PendingFact(d, unit_ids[seq], step.author, times[seq], unit_ids[seq], k)
                        for k, d in enumerate(drafts)
                    )
            return compiled
        inputs = [StepInput(s.action, s.observation, s.author, s.reward) for s in memory.steps]
        structures, usage = self.structurer.structure_steps(memory.goal, inputs)
        self.summary.count_llm(usage, eid)
        compiled.structures = structures
        for seq, structure in enumerate(structures):
            compiled.facts.extend(
                PendingFact(d, unit_ids[seq], memory.steps[seq].author, times[seq], unit_ids[seq], k)
                for k, d in enumerate(structure.facts)
            )
        return compiled

    def _episode_rows(self, batch: GraphBatch, item: CompiledEpisode, step_vectors: Sequence[list[float]]) -> None:
        memory = item.memory
        label = memory.goal or (f"chat {memory.session_id}" if memory.session_id else "chat")
        batch.episodes.append(
            {
                "id": item.id,
                "props": {
                    "kind": memory.kind,
                    "goal": memory.goal or None,
                    "source": memory.source,
                    "session_id": memory.session_id,
                    "started_at": item.started_at,
                    "ended_at": item.ended_at,
                    "outcome": memory.outcome,
                    "content_hash": episode_digest(memory),
                    "caption": caption(f"{memory.kind}: {label}"),
                    "recorded_at": self.now,
                    "expired_at": FAR_FUTURE,
                },
            }
        )
        is_chat = memory.kind == KIND_CHAT
        for seq, (step, structure) in enumerate(zip(memory.steps, item.structures, strict=True)):
            text = step.observation if is_chat else step_text(step.action, step.observation)
            reward = step.reward if step.reward is not None else structure.reward
            batch.episodics.append(
                {
                    "id": item.step_ids[seq],
                    "props": {
                        "kind": "turn" if is_chat else "step",
                        "text": text,
                        "action": step.action or None,
                        "observation": step.observation or None,
                        "subgoal": structure.subgoal,
                        "state": structure.state,
                        "reward": reward,
                        "author": step.author,
                        "event_at": item.event_times[seq],
                        "seq": seq,
                        "content_hash": content_hash(text),
                        "valid_from": item.event_times[seq],
                        "valid_to": FAR_FUTURE,
                        "status": STATUS_ACTIVE,
                        "embedding": step_vectors[seq],
                        "caption": caption(said_by(step.author, text) if is_chat else text),
                        "recorded_at": self.now,
                        "expired_at": FAR_FUTURE,
                    },
                }
            )
            batch.part_of.append({"id": item.step_ids[seq], "episode_id": item.id})
            if seq:
                batch.next.append({"from": item.step_ids[seq - 1], "to": item.step_ids[seq]})

    def _segments(self, item: CompiledEpisode, subgoal_vectors: dict[str, list[float]]) -> list[tuple[str, list[int]]]:
        """(subgoal text, step indexes) per segment that has a subgoal."""
        vectors = [subgoal_vectors.get(s.subgoal) if s.subgoal else None for s in item.structures]
        starts = segment_starts(vectors, self.settings.segment_split_similarity)
        bounds = [*starts, len(item.structures)]
        segments = []
        for a, b in itertools.pairwise(bounds):
            steps = list(range(a, b))
            subgoal = next((item.structures[i].subgoal for i in steps if item.structures[i].subgoal), None)
            if subgoal and normalize_tag(subgoal):
                segments.append((subgoal, steps))
        return segments

    def _procedures(
        self, batch: GraphBatch, compiled: list[CompiledEpisode], subgoal_vectors: dict[str, list[float]]
    ) -> None:
        drafts: list[dict[str, Any]] = []
        for item in compiled:
            if item.memory.kind == KIND_CHAT:
                continue
            memory = item.memory
            for n, (subgoal, steps) in enumerate(self._segments(item, subgoal_vectors)):
                inputs = [
                    StepInput(memory.steps[i].action, memory.steps[i].observation, memory.steps[i].author)
                    for i in steps
                ]
                insight, usage = self.structurer.insight(memory.goal, subgoal, inputs)
                self.summary.count_llm(usage, item.id)
                if insight is None:
                    continue
                rewards = [
                    r
                    for i in steps
                    if (
                        r := memory.steps[i].reward if memory.steps[i].reward is not None else item.structures[i].reward
                    )
                    is not None
                ]
                ret = statistics.fmean(rewards) if rewards else (memory.outcome if memory.outcome is not None else 0.0)
                drafts.append(
                    {
                        "id": content_id("proc", self.space, item.id, n),
                        "subgoal": subgoal,
                        "goal": insight.goal,
                        "text": insight.text,
                        "return": float(ret),
                        "at": item.event_times[steps[0]],
                        "evidence": [item.step_ids[i] for i in steps],
                    }
                )
        if not drafts:
            return
        vectors = self.vectors.embed([d["text"] for d in drafts], PROCEDURES)
        subgoals = resolve_keys(
            self.vectors,
            SUBGOAL,
            self.space,
            [d["subgoal"] for d in drafts],
            self.settings.subgoal_cluster_similarity,
            known_vectors=subgoal_vectors,
        )
        for key in subgoals.new:
            batch.subgoals.append(
                {
                    "id": key.id,
                    "props": {
                        "text": key.text,
                        "embedding": key.embedding,
                        "importance": 1.0,
                        "members": 0,
                        "caption": caption(key.text),
                        "recorded_at": self.now,
                        "expired_at": FAR_FUTURE,
                    },
                }
            )
        for draft, vector in zip(drafts, vectors, strict=True):
            batch.procedurals.append(
                {
                    "id": draft["id"],
                    "subgoal_id": subgoals.ids[normalize_tag(draft["subgoal"])],
                    "props": {
                        "text": draft["text"],
                        "goal": draft["goal"],
                        "return": draft["return"],
                        "uses": 0,
                        "credibility": 1.0,
                        "importance": 1.0,
                        "valid_from": draft["at"],
                        "valid_to": FAR_FUTURE,
                        "status": STATUS_ACTIVE,
                        "embedding": vector,
                        "caption": caption(draft["text"]),
                        "recorded_at": self.now,
                        "expired_at": FAR_FUTURE,
                    },
                }
            )
            batch.procedural_evidence.extend({"from": draft["id"], "to": step} for step in draft["evidence"])

    # --- per group -------------------------------------------------------------------------------
    def _screen(self, group: list[tuple[int, Memory]], strict: bool) -> list[tuple[int, Memory, str]]:
        """Skip episodes already in the space with the same content; refuse an id holding other content or
        naming a node of another kind (also a step id); returns the episodes to write."""
        ids = {index: episode_id(memory) for index, memory in group}
        units = {index: step_ids(memory, self.space, ids[index]) for index, memory in group}
        wanted = list(dict.fromkeys([*ids.values(), *(u for us in units.values() for u in us)]))
        holders: dict[str, list[dict[str, Any]]] = {}
        for row in self.summary.timed_db(lambda: self.store.read("write/id_holders", space=self.space, ids=wanted)):
            holders.setdefault(row["id"], []).append(row)
        fresh: list[tuple[int, Memory, str]] = []
        for index, memory in group:
            eid, digest = ids[index], episode_digest(memory)
            held = holders.get(eid, [])
            other = next((h["kind"] for h in held if h["kind"] != "episode"), None)
            stored = next((h["hash"] or digest for h in held if h["kind"] == "episode"), None) or self.seen.get(eid)
            error: Conflict | None = None
            if other is not None:
                error = Conflict(f"episodes[{index}].id", f"{eid!r} already names a {other} in this space")
            elif stored not in (None, digest):
                error = episode_holds_other_content(index, eid)
            elif stored is None:
                unit = next(((j, u) for j, u in enumerate(units[index]) if u in holders), None)
                if unit is not None:
                    j, uid = unit
                    kinds = holders[uid][0]["kind"]
                    error = Conflict(f"episodes[{index}].steps[{j}]", f"{uid!r} already names a {kinds} in this space")
            if error is not None:
                if strict:
                    raise error
                self.summary.reject(InvalidInput(error.field, error.message))
                continue
            self.summary.ids[index] = eid
            if stored is not None:
                self.summary.skipped += 1
                continue
            self.seen[eid] = digest
            fresh.append((index, memory, eid))
        return fresh

    def _write_group(self, group: list[tuple[int, Memory]], strict: bool) -> None:
        fresh = self._screen(group, strict)
        while fresh:
            try:
                self._write_fresh(fresh)
                return
            except WriteConflict as exc:  # a concurrent writer stored one of these ids with other content
                losers = [
                    (index, eid)
                    for index, memory, eid in fresh
                    if eid in exc.ids or any(u in exc.ids for u in step_ids(memory, self.space, eid))
                ]
                if not losers:
                    raise
                if strict:
                    raise episode_holds_other_content(*losers[0]) from exc
                for index, eid in losers:
                    error = episode_holds_other_content(index, eid)
                    self.summary.reject(InvalidInput(error.field, error.message))
                    self.summary.ids[index] = None
                    self.seen.pop(eid, None)
                fresh = [entry for entry in fresh if entry[0] not in {i for i, _ in losers}]

    def _write_fresh(self, fresh: list[tuple[int, Memory, str]]) -> None:
        compiled = [self._compile(memory, eid) for _, memory, eid in fresh]
        step_texts: list[str] = []
        for item in compiled:
            for step in item.memory.steps:
                if item.memory.kind == KIND_CHAT:
                    step_texts.append(said_by(step.author, step.observation))
                else:
                    step_texts.append(step_text(step.action, step.observation))
        fact_texts = [f.draft.text for item in compiled for f in item.facts]
        subgoal_texts = list(dict.fromkeys(s.subgoal for item in compiled for s in item.structures if s.subgoal))
        vectors = self.vectors.embed(
            step_texts + fact_texts + subgoal_texts,
            [EVIDENCE] * len(step_texts) + [FACTS] * len(fact_texts) + [SUBGOALS] * len(subgoal_texts),
            known=self.vectors.stored_facts(fact_texts),
        )
        step_vectors = vectors[: len(step_texts)]
        fact_vectors = vectors[len(step_texts) : len(step_texts) + len(fact_texts)]
        subgoal_vectors = dict(zip(subgoal_texts, vectors[len(step_texts) + len(fact_texts) :], strict=True))

        batch = GraphBatch()
        offset = 0
        for item in compiled:
            n = len(item.memory.steps)
            self._episode_rows(batch, item, step_vectors[offset : offset + n])
            offset += n
        facts = [f for item in compiled for f in item.facts]
        stage_tagged_facts(
            batch,
            self.vectors,
            self.space,
            facts,
            fact_vectors,
            self.settings.tag_merge_similarity,
            self.now,
        )
        self._procedures(batch, compiled, subgoal_vectors)
        created, rels = self.summary.timed_db(
            lambda: self.store.write_transaction(lambda tx: write_batch(self.store, tx, self.space, batch))
        )
        for label, count in created.items():
            self.summary.count_created(label, count)
        self.summary.relationships += rels

    def run(self, memories: Iterable[Memory | Any], *, strict: bool = False) -> IngestSummary:
        """`memories`: closed `Memory` objects or raw JSONL records (parsed by `parse_episode`)."""
        parsed: list[tuple[int, Memory]] = []
        total = 0
        for index, raw in enumerate(memories):
            total += 1
            try:
                memory = raw if isinstance(raw, Memory) else parse_episode(index, raw, self.space)
                if memory.space != self.space:
                    raise InvalidInput(f"episodes[{index}].space", f"{memory.space!r} is not {self.space!r}")
                if not memory.closed:
                    memory.close()
                parsed.append((index, memory))
            except InvalidInput as exc:
                if strict:
                    raise
                self.summary.reject(exc)
        self.summary.ids = [None] * total
        if self.progress and total > len(parsed):
            self.progress(total - len(parsed))
        group: list[tuple[int, Memory]] = []
        steps = 0
        for entry in parsed:
            group.append(entry)
            steps += len(entry[1].steps)
            if len(group) >= self.settings.ingest_batch_size or steps >= STEPS_PER_WRITE:
                self._write_group(group, strict)
                if self.progress:
                    self.progress(len(group))
                group, steps = [], 0
        if group:
            self._write_group(group, strict)
            if self.progress:
                self.progress(len(group))
        return self.summary.finish()


def episode_holds_other_content(index: int, eid: str) -> Conflict:
    return Conflict(
        f"episodes[{index}].id", f"{eid!r} already holds a different episode; store this one under a new id"
    )


def ingest_episodes(
    store: Store,
    embedder: Embedder,
    settings: Settings,
    space: str,
    episodes: Iterable[Memory | Any],
    *,
    structurer: Structurer | None = None,
    strict: bool = False,
    progress: Progress | None = None,
) -> IngestSummary:
    """Compile and store episodes (see the module docstring); returns the summary."""
    return EpisodeIngest(store, embedder, settings, space, structurer, progress=progress).run(episodes, strict=strict)
