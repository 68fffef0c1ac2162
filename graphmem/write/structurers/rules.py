"""`RuleStructurer`: deterministic structuring with no model — the default when no LLM is configured.

Rules (the same input always gives the same drafts):

- *facts*: each sentence (`graphmem.write.sentences`) of a step's observation and of its action with at least
  `MIN_FACT_WORDS` words and at least one tag becomes a fact; tags by `graphmem.write.tags.extract_tags`.
  Not facts: message routing headers (`From:`, `To:`, `Cc:`, `Bcc:`, `Date:`, `Sent:`, `Reply-To:` lines:
  the document already carries its author and date) and lines with no lower-case word of three letters or
  more (titles, signatures, lists of names: "CTO, Helix Logistics"), which match every question about
  their names and say nothing.
- *subgoal*: the action's verb phrase — its first word (the verb) and the next key words, quotes and
  punctuation dropped, at most `SUBGOAL_WORDS` words, lower case ("search 'quiet restaurants'" →
  "search quiet restaurants"); a step with no action has no subgoal of its own.
- *reward*: the step's own reward when given; rules never guess one.
- *state*: a rolling summary — the last `STATE_ACTIONS` actions and the first sentence of the current
  observation.
- *insight*: per segment, goal = the segment's subgoal, text = "To <subgoal>: <action> -> <action> ..."
  (at most `INSIGHT_ACTIONS` actions), the episode goal in brackets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem.llm.usage import LLMUsage
from graphmem.write.sentences import split_sentences
from graphmem.write.structurers.base import FactDraft, InsightDraft, StepInput, StepStructure
from graphmem.write.tags import extract_tags, stopwords

MIN_FACT_WORDS = 3
MIN_ACTION_FACT_WORDS = 2
FACT_TAGS = 5
SUBGOAL_WORDS = 5
STATE_ACTIONS = 3
STATE_OBSERVATION_CHARS = 160
INSIGHT_ACTIONS = 8
INSIGHT_ACTION_CHARS = 80

_WORD_RE = re.compile(r"[\w'’\-]+", re.UNICODE)
_ROUTING_HEADER_RE = re.compile(r"^\W*(from|to|cc|bcc|date|sent|reply-to)\W*:", re.IGNORECASE)
_LOWER_WORD_RE = re.compile(r"\b[a-z][a-z'’\-]{2,}")


def says_something(sentence: str) -> bool:
    """False for routing headers and for lines of names and titles only (see the module docstring)."""
    return not _ROUTING_HEADER_RE.match(sentence) and _LOWER_WORD_RE.search(sentence) is not None


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def facts_from_text(
    text: str, *, max_facts: int | None = None, min_words: int = MIN_FACT_WORDS, prefix: str = ""
) -> list[FactDraft]:
    """Facts of a text: tagged sentences of at least `min_words` words, in order, at most `max_facts`.

    `prefix` (e.g. "Caroline: ") is prepended to each fact's text and its name-like part kept as a tag,
    so a chat turn's facts say who said them."""
    facts: list[FactDraft] = []
    speaker_tags = tuple(extract_tags(prefix.rstrip(": "), 2)) if prefix else ()
    for sentence in split_sentences(text):
        if len(_WORD_RE.findall(sentence)) < min_words or not says_something(sentence):
            continue
        tags = extract_tags(sentence, FACT_TAGS)
        if not tags:
            continue
        merged = list(dict.fromkeys([*speaker_tags, *tags]))
        facts.append(FactDraft(text=prefix + sentence, tags=tuple(merged)))
        if max_facts is not None and len(facts) >= max_facts:
            break
    return facts


def subgoal_of(action: str) -> str | None:
    """The verb phrase of an action: its first word and the next key (non-stop) words, lower case."""
    words = [w.strip("'’-").lower() for w in _WORD_RE.findall(action)]
    words = [w for w in words if w]
    if not words:
        return None
    stop = stopwords()
    phrase = [words[0], *[w for w in words[1:] if w not in stop and not w.isdigit()]]
    return " ".join(phrase[:SUBGOAL_WORDS])


class RuleStructurer:
    """Deterministic structurer (see the module docstring for the rules)."""

    name = "rules"

    def structure_steps(self, goal: str, steps: Sequence[StepInput]) -> tuple[list[StepStructure], LLMUsage]:
        results: list[StepStructure] = []
        recent_actions: list[str] = []
        for step in steps:
            facts = facts_from_text(step.observation)
            if step.action:
                facts += facts_from_text(step.action, min_words=MIN_ACTION_FACT_WORDS)
                recent_actions = [*recent_actions, _clip(step.action, 60)][-STATE_ACTIONS:]
            first = split_sentences(step.observation)[:1]
            state_parts = []
            if recent_actions:
                state_parts.append("after " + "; ".join(recent_actions))
            if first:
                state_parts.append("seeing " + _clip(first[0], STATE_OBSERVATION_CHARS))
            results.append(
                StepStructure(
                    subgoal=subgoal_of(step.action),
                    reward=step.reward,
                    state=" — ".join(state_parts) or None,
                    facts=facts,
                )
            )
        return results, LLMUsage()

    def insight(self, goal: str, subgoal: str, steps: Sequence[StepInput]) -> tuple[InsightDraft | None, LLMUsage]:
        actions = [_clip(s.action, INSIGHT_ACTION_CHARS) for s in steps if s.action.strip()]
        if not actions:
            return None, LLMUsage()
        shown = actions[:INSIGHT_ACTIONS]
        more = f" (+{len(actions) - len(shown)} more)" if len(actions) > len(shown) else ""
        text = f"To {subgoal}: " + " -> ".join(shown) + more
        if goal.strip():
            text += f" [goal: {_clip(goal, 120)}]"
        return InsightDraft(goal=subgoal, text=text), LLMUsage()
