"""Evidence packing, as Mem++ hands evidence to an answering model: items in rank order, each prefixed by
its date and author, within a character budget (default 40,000) and, optionally, a token budget measured
with the embedding model's local tokenizer (`Embedder.count_tokens`). The pack says how many items, tokens
and characters fit and whether the last item had to be cut."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from graphmem.read.results import ExpandedEpisode, RecallHit, RelatedArtefact

TokenCounter = Callable[[str], int]
SEPARATOR = "\n"
ELLIPSIS = " …"
RELATION_LABELS = {"thread": "same thread", "supersedes": "earlier version", "superseded_by": "later version"}


@dataclass(frozen=True)
class EvidencePack:
    text: str
    tokens: int
    item_ids: list[str]
    truncated: bool

    @property
    def items(self) -> int:
        return len(self.item_ids)

    @property
    def chars(self) -> int:
        return len(self.text)


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


def related_block(artefact: RelatedArtefact) -> str:
    """A related document, whole, saying how it relates to the hit before it."""
    label = RELATION_LABELS.get(artefact.relation, artefact.relation)
    return f"{prefix(artefact.event_at, artefact.author)} ({label}) {artefact.text.strip()}"


def evidence_blocks(
    items: Sequence[RecallHit | RelatedArtefact], episodes: Sequence[ExpandedEpisode]
) -> list[tuple[str, str]]:
    """(id, text) blocks in order (hits, each followed by the artefacts it brought); an expanded episode
    takes the place of its best-ranked hit and its other hits are not repeated; a unit shows once."""
    by_episode = {e.episode_id: e for e in episodes}
    placed: set[str] = set()
    blocks: list[tuple[str, str]] = []
    for item in items:
        if isinstance(item, RelatedArtefact):
            block_id, text = item.id, related_block(item)
        else:
            episode = by_episode.get(item.episode_id or "") if item.kind == "episodic" else None
            block_id, text = (item.id, hit_block(item)) if episode is None else (episode.episode_id, "")
            if episode is not None and episode.episode_id not in placed:
                text = episode_block(episode)
        if block_id in placed or not text:
            continue
        placed.add(block_id)
        blocks.append((block_id, text))
    return blocks


def pack_evidence(
    blocks: Sequence[tuple[str, str]],
    count_tokens: TokenCounter,
    max_chars: int | None,
    max_tokens: int | None = None,
) -> EvidencePack:
    """Blocks joined by newlines, in order, while the text stays within both budgets (None = no limit);
    the first block that does not fit is cut at a word boundary to fill what is left, and packing stops.

    Each block is tokenized once: the local tokenizers split on whitespace first, so a newline-joined
    text costs the sum of its blocks' tokens."""
    parts: list[str] = []
    ids: list[str] = []
    chars = tokens = 0
    for block_id, block in blocks:
        sep = len(SEPARATOR) if parts else 0
        block_tokens = count_tokens(block)
        if _fits(chars + sep + len(block), tokens + block_tokens, max_chars, max_tokens):
            parts.append(block)
            ids.append(block_id)
            chars += sep + len(block)
            tokens += block_tokens
            continue
        room_chars = None if max_chars is None else max_chars - chars - sep
        room_tokens = None if max_tokens is None else max_tokens - tokens
        cut = _fit_prefix(block, count_tokens, room_chars, room_tokens)
        if cut:
            parts.append(cut)
            ids.append(block_id)
        text = SEPARATOR.join(parts)
        return EvidencePack(text, count_tokens(text) if text else 0, ids, truncated=True)
    text = SEPARATOR.join(parts)
    return EvidencePack(text, tokens, ids, truncated=False)


def _fits(chars: int, tokens: int, max_chars: int | None, max_tokens: int | None) -> bool:
    return (max_chars is None or chars <= max_chars) and (max_tokens is None or tokens <= max_tokens)


def _fit_prefix(block: str, count_tokens: TokenCounter, room_chars: int | None, room_tokens: int | None) -> str:
    """The longest word prefix of `block` (with an ellipsis) that fits in the room left."""
    if (room_chars is not None and room_chars <= len(ELLIPSIS)) or (room_tokens is not None and room_tokens <= 1):
        return ""
    words = block.split(" ")
    lo, hi = 0, len(words)
    best = ""
    while lo < hi:
        mid = (lo + hi + 1) // 2
        piece = " ".join(words[:mid]) + ELLIPSIS
        if _fits(len(piece), count_tokens(piece) if room_tokens is not None else 0, room_chars, room_tokens):
            best, lo = piece, mid
        else:
            hi = mid - 1
    return best
