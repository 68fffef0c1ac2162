"""Tags: short normalised keys (names, numbers with units, key noun phrases) shared by write and read.

The read path votes with tags extracted from a *query* by the same `extract_tags`, and matches them on
`normalize_tag`, so both functions are deterministic, fast and free of any model.

Algorithm (a RAKE-style keyphrase extractor, documented so results can be predicted):

1. Tokenise into words, numbers and punctuation; sentence boundaries and punctuation split phrases.
2. *Names*: runs of capitalised words (``Caroline``, ``New York``, ``LGBTQ Support Group``), joined across
   ``of``/``de``/``van``/``&``; a lone capitalised word at the start of a sentence counts unless it is a
   stop word or the same text also uses it in lower case; capitalised calendar words ("May") count.
3. *Quantities*: a number with its unit or counted noun (``5 km``, ``$20``, ``3 dogs``, ``10:30 am``,
   ``2024``); a bare one-digit number or a bare clock time (transcript stamps) is not a tag.
4. *Key phrases*: maximal runs of lower-case non-stop words (yake's English stop-word list plus common verbs),
   at most three words long (a longer run gives its last two words — the head of an English noun phrase —
   and, as a phrase of its own, up to three words before them: "mv petrel-iii's | service loop"), scored by
   RAKE's degree / frequency.

Names come first, then quantities, then phrases by score; ties keep text order; duplicates by normal
form are dropped.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from graphmem.text.words import CALENDAR_WORDS, stopwords

MAX_PHRASE_WORDS = 3
DEFAULT_MAX_TAGS = 8

_NAME_JOINERS = frozenset({"of", "de", "van", "von", "der", "du", "la", "&"})
_TOKEN_RE = re.compile(
    r"[$€£¥]?\d+(?:[.,:/-]\d+)*%?"  # numbers, money, times, dates
    r"|[A-Za-zÀ-ÖØ-öø-ÿ][\w'’\-]*"  # words (with inner apostrophes / hyphens)
    r"|[.!?;:,()\[\]{}\"“”]"  # punctuation that ends a phrase
    r"|\n",
    re.UNICODE,
)
_SENTENCE_END = frozenset({".", "!", "?", "\n"})
_POSSESSIVE_RE = re.compile(r"['’]s\b|['’]\B")
_NON_WORD_RE = re.compile(r"[^\w$€£¥%:./\- ]+", re.UNICODE)
_SPACES_RE = re.compile(r"\s+")


def _singular(word: str) -> str:
    """A conservative English singular, applied identically to queries and tags (never a dictionary)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ous", "'s")):
        return word[:-1]
    return word


def normalize_tag(name: str) -> str:
    """The de-duplication key of a tag: NFKC, lower case, possessives and punctuation dropped, whitespace
    collapsed, leading articles removed, each word singularised (``"The user's Preferences"`` →
    ``"user preference"``). Returns "" for a name with no word characters."""
    text = unicodedata.normalize("NFKC", name).lower()
    text = _POSSESSIVE_RE.sub("", text)
    text = _NON_WORD_RE.sub(" ", text)
    words = [w.strip(".:/-") for w in _SPACES_RE.split(text)]
    words = [w for w in words if w]
    while words and words[0] in ("the", "a", "an"):
        words = words[1:]
    return " ".join(_singular(w) for w in words)


def _is_capitalised(token: str) -> bool:
    return token[:1].isupper()


def _is_word(token: str) -> bool:
    return token[:1].isalpha()


def _is_number(token: str) -> bool:
    return token[:1].isdigit() or (len(token) > 1 and token[0] in "$€£¥" and token[1].isdigit())


def _sentences(tokens: list[str]) -> Iterable[list[str]]:
    current: list[str] = []
    for token in tokens:
        if token in _SENTENCE_END:
            if current:
                yield current
            current = []
        else:
            current.append(token)
    if current:
        yield current


def _is_ordinary(word: str, stop: frozenset[str], plain: frozenset[str]) -> bool:
    """A capitalised sentence-initial word is an ordinary word, not a name, when it is a stop word or
    the same text also uses it in lower case ("Search ... then search again")."""
    low = word.lower()
    return low in stop or low in plain


def _names(sentence: list[str], stop: frozenset[str], plain: frozenset[str]) -> list[str]:
    names: list[str] = []
    run: list[str] = []
    run_start = 0

    def flush() -> None:
        while run and (run[-1].lower() in _NAME_JOINERS or run[-1] == "I"):
            run.pop()
        while run and run_start == 0 and run[0].lower() in stop and run[0].lower() not in CALENDAR_WORDS:
            run.pop(0)  # "The Bank of England" at a sentence start -> "Bank of England"
        if run and not (len(run) == 1 and run_start == 0 and _is_ordinary(run[0], stop, plain)):
            names.append(" ".join(run))
        run.clear()

    for i, token in enumerate(sentence):
        low = token.lower()
        if (
            _is_word(token)
            and _is_capitalised(token)
            and token != "I"
            and (i == 0 or run or low not in stop or low in CALENDAR_WORDS)
        ):
            if not run:
                run_start = i
            run.append(token)
        elif run and token.lower() in _NAME_JOINERS:
            run.append(token)
        else:
            flush()
    flush()
    return names


_CLOCK_RE = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")


def _quantities(sentence: list[str], stop: frozenset[str]) -> list[str]:
    found: list[str] = []
    for i, token in enumerate(sentence):
        if not _is_number(token):
            continue
        nxt = sentence[i + 1] if i + 1 < len(sentence) else ""
        if _CLOCK_RE.match(token) and nxt.lower() not in ("am", "pm"):
            continue  # a bare clock time (transcript stamps, "at 10:30") keys nothing on its own
        if nxt and _is_word(nxt) and nxt.lower() not in stop - _UNIT_STOPWORDS and len(nxt) <= 14:
            found.append(f"{token} {nxt}")
        elif len(token.strip("$€£¥%")) > 1 or token[0] in "$€£¥" or token.endswith("%"):
            found.append(token)
    return found


# Time units are stop words in running text but make a quantity readable ("3 weeks").
_UNIT_STOPWORDS = frozenset({"day", "days", "week", "weeks", "month", "months", "year", "years", "times", "time"})


def _phrases(sentence: list[str], stop: frozenset[str], plain: frozenset[str]) -> list[str]:
    phrases: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if len(run) > MAX_PHRASE_WORDS:  # the head of the noun phrase, then what stood before it
            phrases.append(" ".join(run[-2:]))
            phrases.append(" ".join(run[-2 - MAX_PHRASE_WORDS : -2]))
        elif run:
            phrases.append(" ".join(run))
        run.clear()

    for i, token in enumerate(sentence):
        low = token.lower()
        # Capitalised words inside a sentence belong to names; phrases are the lower-case key words.
        if (
            _is_word(token)
            and low not in stop
            and len(low) > 1
            and (not _is_capitalised(token) or (i == 0 and _is_ordinary(token, stop, plain)))
        ):
            run.append(token)
        else:
            flush()
    flush()
    return phrases


def _rake_scores(phrases: list[str]) -> dict[str, float]:
    freq: Counter[str] = Counter()
    degree: Counter[str] = Counter()
    for phrase in phrases:
        words = phrase.lower().split()
        for word in words:
            freq[word] += 1
            degree[word] += len(words)
    return {p: sum(degree[w] / freq[w] for w in p.lower().split()) for p in phrases}


def extract_tags(text: str, max_tags: int = DEFAULT_MAX_TAGS) -> list[str]:
    """Tags for `text` in priority order (names, quantities, key phrases), at most `max_tags`, distinct
    by `normalize_tag`. Each tag is the text's own wording; compare them through `normalize_tag`."""
    if not text or max_tags <= 0:
        return []
    stop = stopwords()
    tokens = _TOKEN_RE.findall(text.replace("’", "'"))
    plain = frozenset(t for t in tokens if t[:1].islower())
    names: list[str] = []
    quantities: list[str] = []
    phrases: list[str] = []
    for sentence in _sentences(tokens):
        names.extend(_names(sentence, stop, plain))
        quantities.extend(_quantities(sentence, stop))
        phrases.extend(_phrases(sentence, stop, plain))
    scores = _rake_scores(phrases)
    ranked_phrases = sorted(dict.fromkeys(phrases), key=lambda p: -scores[p])  # stable: ties keep text order

    tags: list[str] = []
    seen: set[str] = set()
    name_words = {w for n in names for w in normalize_tag(n).split()}
    for candidate in [*names, *quantities, *ranked_phrases]:
        key = normalize_tag(candidate)
        if not key or key in seen:
            continue
        # A phrase that only repeats a name's words ("Caroline" inside "Caroline") adds nothing.
        if candidate in ranked_phrases and candidate not in names and set(key.split()) <= name_words:
            continue
        seen.add(key)
        tags.append(candidate)
        if len(tags) >= max_tags:
            break
    return tags


def names_in(text: str) -> list[str]:
    """The names `text` mentions, as `extract_tags` finds them, less a lone capitalised word opening a
    sentence: "Walk me through ..." or "Summarise ..." may be an ordinary word, which only a name's second
    word or a mid-sentence capital tells apart."""
    stop = stopwords()
    tokens = _TOKEN_RE.findall((text or "").replace("’", "'"))
    plain = frozenset(t for t in tokens if t[:1].islower())
    found: list[str] = []
    for sentence in _sentences(tokens):
        found.extend(name for name in _names(sentence, stop, plain) if name != sentence[0])
    return list(dict.fromkeys(found))


__all__ = ["DEFAULT_MAX_TAGS", "extract_tags", "names_in", "normalize_tag"]
