"""`RuleStructurer`: deterministic structuring with no model — the default when no LLM is configured.

Rules (the same input always gives the same drafts):

- *facts*: each sentence (`graphmem.text.sentences`) of a step's observation and of its action with at least
  `MIN_FACT_WORDS` words and at least one tag becomes a fact; tags by `graphmem.text.tags.extract_tags`.
  Not facts: message routing headers (`From:`, `To:`, `Cc:`, `Bcc:`, `Date:`, `Sent:`, `Reply-To:` lines:
  the document already carries its author and date) and lines with no lower-case word of three letters or
  more (titles, signatures, lists of names: "CTO, Helix Logistics"), which match every question about
  their names and say nothing.
  *Headings* of a document (`titles=True`) are no facts either: an email's `Subject:` line, a Markdown
  heading, and a first line that stands alone without closing punctuation ("ADR: primary datastore for the
  Orders service"). A heading names what the text under it is about and states no value, yet as a fact of
  its own it matches a question's words better than the sentence that answers it ("What is the Orders
  service's datastore now?" ranked an old ADR's title above the newer decision). Its tags (at most
  `HEADING_TAGS`) go onto every fact under it instead, so the subject still ties the document's statements
  to a question about it ("Ines Costa will lead the team" under "Subject: Route Planning team leadership");
  a Markdown heading ends the sections at its level or deeper, so a fact carries its title's and section's.
  A *dated label* at the start of a document line ("Vendor committee minutes (February 28, 2024).", "Staff
  meeting notes (June 15, 2023).": a few words and a date in brackets, nothing after them in the sentence)
  titles what follows the same way: as a fact it names no value, yet it shares words with every question
  about its meeting's subject ("Who is our customer chat vendor?" ranked ten such minute titles above the
  chat message that signed the vendor).
  *Questions* in a document ("does anyone know who owns the hotel limit wording?") are no facts: they assert
  nothing, and they repeat the very words of a question about their subject, so as facts they outranked the
  answer. The document keeps them whole, so they are still searchable as evidence.
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
from graphmem.text import extract_tags, split_sentences, stopwords
from graphmem.write.structurers.base import FactDraft, InsightDraft, StepInput, StepStructure

MIN_FACT_WORDS = 3
MIN_ACTION_FACT_WORDS = 2
FACT_TAGS = 5
SUBGOAL_WORDS = 5
STATE_ACTIONS = 3
STATE_OBSERVATION_CHARS = 160
INSIGHT_ACTIONS = 8
INSIGHT_ACTION_CHARS = 80
HEADING_TAGS = 3
HEADING_WORDS = 15

_WORD_RE = re.compile(r"[\w'’\-]+", re.UNICODE)
_ROUTING_HEADER_RE = re.compile(r"^\W*(from|to|cc|bcc|date|sent|reply-to)\W*:", re.IGNORECASE)
_LOWER_WORD_RE = re.compile(r"\b[a-z][a-z'’\-]{2,}")
_SUBJECT_LINE_RE = re.compile(r"^\W*(subject|re|fwd?)\s*:", re.IGNORECASE)
_MARKDOWN_HEADING_RE = re.compile(r"^#{1,6}\s+\S")
# a few words, then a bracketed date ("(June 15, 2023)", "(2024-02-28)"), then at most a full stop or colon
_DATED_LABEL_RE = re.compile(r"^(?P<label>[^()]+?)\s*\((?=[^()]*\d{4})[^()]{4,40}\)\s*[.:]?$")
_QUESTION_END_RE = re.compile(r"\?[\"'”’)\]]*$")
DATED_LABEL_WORDS = 6
# below every Markdown heading level: a label keeps its document's subject line and section titles, the next
# label or section replaces it
DATED_LABEL_LEVEL = 7


def says_something(sentence: str) -> bool:
    """False for routing headers and for lines of names and titles only (see the module docstring)."""
    return not _ROUTING_HEADER_RE.match(sentence) and _LOWER_WORD_RE.search(sentence) is not None


def is_dated_label(sentence: str) -> bool:
    """True for a sentence that only labels a dated record: "Vendor committee minutes (February 28, 2024)."."""
    match = _DATED_LABEL_RE.match(sentence.strip())
    return match is not None and len(_WORD_RE.findall(match.group("label"))) <= DATED_LABEL_WORDS


def is_question(sentence: str) -> bool:
    """True for a sentence that asks rather than states (it ends with a question mark)."""
    return _QUESTION_END_RE.search(sentence.strip()) is not None


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def is_heading(line: str, first: bool, more_follow: bool) -> bool:
    """True for a document line that titles what follows (see the module docstring): a `Subject:` line, a
    Markdown heading, or a short first line with more lines after it and no closing punctuation."""
    line = line.strip()
    if _SUBJECT_LINE_RE.match(line) or _MARKDOWN_HEADING_RE.match(line):
        return True
    short = len(_WORD_RE.findall(line)) <= HEADING_WORDS
    return first and more_follow and short and not line.endswith((".", "!", "?", ":"))


def facts_from_text(
    text: str,
    *,
    max_facts: int | None = None,
    min_words: int = MIN_FACT_WORDS,
    prefix: str = "",
    titles: bool = False,
) -> list[FactDraft]:
    """Facts of a text: tagged sentences of at least `min_words` words, in order, at most `max_facts`.

    `prefix` (e.g. "Caroline: ") is prepended to each fact's text and its name-like part kept as a tag,
    so a chat turn's facts say who said them. With `titles` (documents), headings are no facts and lend
    their tags to the facts under them."""
    facts: list[FactDraft] = []
    speaker_tags = tuple(extract_tags(prefix.rstrip(": "), 2)) if prefix else ()
    headings: dict[int, tuple[str, ...]] = {}  # heading level -> its tags; a heading ends those at or below it
    lines = [line for line in text.splitlines() if line.strip()] if titles else [text]
    for n, line in enumerate(lines):
        if titles and is_heading(line, first=n == 0, more_follow=n + 1 < len(lines)):
            stripped = line.strip()
            level = len(stripped) - len(stripped.lstrip("#"))
            headings = {lv: tags for lv, tags in headings.items() if lv < level}
            headings[level] = tuple(extract_tags(_SUBJECT_LINE_RE.sub("", stripped.lstrip("#")), HEADING_TAGS))
            continue
        sentences = split_sentences(line)
        if titles and sentences and is_dated_label(sentences[0]):
            label = _DATED_LABEL_RE.sub(r"\g<label>", sentences[0].strip())
            headings = {**headings, DATED_LABEL_LEVEL: tuple(extract_tags(label, HEADING_TAGS))}
            sentences = sentences[1:]
        heading_tags = [tag for lv in sorted(headings) for tag in headings[lv]]
        for sentence in sentences:
            if len(_WORD_RE.findall(sentence)) < min_words or not says_something(sentence):
                continue
            if titles and (is_question(sentence) or is_dated_label(sentence)):
                continue
            tags = extract_tags(sentence, FACT_TAGS)
            if not tags:
                continue
            merged = list(dict.fromkeys([*speaker_tags, *tags, *heading_tags]))
            facts.append(FactDraft(text=prefix + sentence, tags=tuple(merged)))
            if max_facts is not None and len(facts) >= max_facts:
                return facts
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
