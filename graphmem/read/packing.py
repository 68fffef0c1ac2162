"""Evidence packing: items in rank order, each prefixed by its date and author, under a token budget
measured with the embedding model's local tokenizer (`Embedder.count_tokens`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from graphmem.read.results import ExpandedEpisode, RecallHit

TokenCounter = Callable[[str], int]


@dataclass(frozen=True)
class EvidencePack:
    text: str
    tokens: int
    item_ids: list[str]
    truncated: bool


def prefix(event_at: datetime | None, author: str | None) -> str:
    """`[2024-03-05 · alice]`; `[undated]` when the unit has no date."""
    date = event_at.strftime("%Y-%m-%d") if event_at else "undated"
    return f"[{date} · {author}]" if author else f"[{date}]"


def hit_block(hit: RecallHit) -> str:
    return f"{prefix(hit.event_at, hit.author)} {hit.text.strip()}"


def episode_block(episode: ExpandedEpisode) -> str:
    """A whole episode, its units in order, under a header naming it."""
    first = next((u.event_at for u in episode.units if u.event_at), None)
    title = episode.goal or episode.session_id or episode.episode_id
    lines = [f"{prefix(first, None)} episode: {title}"]
    lines.extend(f"  {prefix(u.event_at, u.author)} {u.text.strip()}" for u in episode.units)
    return "\n".join(lines)


def evidence_blocks(hits: Sequence[RecallHit], episodes: Sequence[ExpandedEpisode]) -> list[tuple[str, str]]:
    """(id, text) blocks in rank order; an expanded episode takes the place of its best-ranked hit and
    its other hits are not repeated."""
    by_episode = {e.episode_id: e for e in episodes}
    placed: set[str] = set()
    blocks: list[tuple[str, str]] = []
    for hit in hits:
        episode = by_episode.get(hit.episode_id or "") if hit.kind == "episodic" else None
        if episode is None:
            blocks.append((hit.id, hit_block(hit)))
        elif episode.episode_id not in placed:
            placed.add(episode.episode_id)
            blocks.append((episode.episode_id, episode_block(episode)))
    return blocks


def pack_evidence(blocks: Sequence[tuple[str, str]], count_tokens: TokenCounter, budget: int) -> EvidencePack:
    """Blocks joined in order while the whole text stays within `budget` tokens; the first block that does
    not fit is cut at a word boundary to fill what is left, and packing stops there."""
    text = ""
    ids: list[str] = []
    for block_id, block in blocks:
        candidate = f"{text}\n{block}" if text else block
        if count_tokens(candidate) <= budget:
            text = candidate
            ids.append(block_id)
            continue
        cut = _fit_prefix(text, block, count_tokens, budget)
        if cut:
            text = f"{text}\n{cut}" if text else cut
            ids.append(block_id)
        return EvidencePack(text, count_tokens(text) if text else 0, ids, truncated=True)
    return EvidencePack(text, count_tokens(text) if text else 0, ids, truncated=False)


def _fit_prefix(text: str, block: str, count_tokens: TokenCounter, budget: int) -> str:
    """The longest word prefix of `block` (with an ellipsis) that still fits after `text`."""
    words = block.split(" ")
    lo, hi = 0, len(words)
    best = ""
    while lo < hi:
        mid = (lo + hi + 1) // 2
        piece = " ".join(words[:mid]) + " …"
        candidate = f"{text}\n{piece}" if text else piece
        if count_tokens(candidate) <= budget:
            best, lo = piece, mid
        else:
            hi = mid - 1
    return best if lo > 0 else ""
