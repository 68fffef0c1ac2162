"""Dates a question states in its own words.

Analysts write the bound of an audit into the question ("the facts on record as of 2023-02-19", "from the
perspective of March 31, 2023") and name when things happened ("the claim Marco made on 2023-07-30", "the
May 2023 product decision"). Two uses:

- **An as-of phrase** ("as of D", "as at D", "as it stood on D", "from the perspective / standpoint / point
  of view of ... D") is the question's as-of date when the caller gave none: Mem++ bounds version choice by
  the question's as-of date, and a question that states one should not get documents written after it.
  The end of the named day (or month) is the bound, so a document of that day is still on record.
- **Any other date** is a soft signal: candidates dated within the named day or month (give or take a
  week) gain `date_match` in their value parts; nothing is filtered by it. A named date that holds the
  recall's as-of (the caller's or the question's) is that bound, not a date something happened on.

The words naming the bound are not searched for (`QuestionDates.without_bound`): "who led Payments on March
27, 2022?" asked as of that day would otherwise rank first every note headed "March 27, 2022", whatever
team it is about.

Dates are ISO (2023-07-30), "July 30, 2023", "30 July 2023" and "July 2023"; a word like "today" is not a
date here (the state cues in `graphmem.read.versions` handle "now").
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from graphmem.text import MONTH_NAMES

_MONTHS = {name: n for n, name in enumerate(MONTH_NAMES, start=1)}
_MONTHS |= {name[:3]: n for n, name in enumerate(MONTH_NAMES, start=1)}  # "Jan", "Sep"
_MONTH_NAMES = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE = re.compile(
    r"\b(?:"
    r"(?P<iso>\d{4}-\d{2}-\d{2})"
    rf"|(?P<month>{_MONTH_NAMES})\.?\s+(?P<mday>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<myear>\d{{4}})"
    rf"|(?P<dday>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<dmonth>{_MONTH_NAMES})\.?,?\s+(?P<dyear>\d{{4}})"
    rf"|(?P<mon>{_MONTH_NAMES})\.?\s+(?P<year>\d{{4}})"
    r")\b",
    re.IGNORECASE,
)
# Words that make the date right after them the question's as-of bound (a few words may sit between:
# "from the perspective of the audit on 2023-04-02").
_AS_OF_CUE = re.compile(
    r"\b(?:as of|as at|as (?:it|they) stood (?:on|in)"
    r"|(?:perspective|standpoint|point of view|vantage point) of)\b(?P<gap>[^.;?!]{0,40}?)$",
    re.IGNORECASE,
)
_GAP_WORDS = 6
WEEK = timedelta(days=7)


@dataclass(frozen=True)
class DateSpan:
    """A date the question names: from the start of its day (or month) to the end of it."""

    start: datetime
    end: datetime
    where: tuple[int, int]  # the characters of the question that name it

    def closeness(self, when: datetime, slack: timedelta = WEEK) -> float:
        """1 inside the span, falling linearly to 0 at `slack` outside it."""
        if self.start <= when <= self.end:
            return 1.0
        gap = self.start - when if when < self.start else when - self.end
        return max(0.0, 1.0 - gap / slack)


@dataclass(frozen=True)
class QuestionDates:
    as_of: datetime | None
    mentions: tuple[DateSpan, ...]
    as_of_where: tuple[int, int] | None = None  # the as-of phrase, cue words and date

    def without_bound(self, text: str, as_of: datetime | None, stated: bool) -> str:
        """`text` less the words that name its as-of bound: the as-of phrase when the question's own bound
        is used (`stated`), and any named date holding the caller's `as_of`. They bound the search; as
        search words they would match every note headed with that date."""
        cuts = [self.as_of_where] if stated and self.as_of_where else []
        if as_of is not None:
            cuts += [m.where for m in self.mentions if m.start <= as_of <= m.end]
        for start, end in sorted(cuts, reverse=True):
            text = text[:start] + text[end:]
        return " ".join(text.split())

    def bounded_by(self, as_of: datetime) -> QuestionDates:
        """These dates for a recall bounded at `as_of`: a named date that holds `as_of` is the bound itself
        ("who led Payments on March 27, 2022?" asked as of that day), not a date things happened on."""
        return QuestionDates(self.as_of, tuple(s for s in self.mentions if not s.start <= as_of <= s.end))

    def closeness(self, when: datetime | None) -> float:
        """How close `when` is to the nearest date the question names (0 when it names none)."""
        if when is None or not self.mentions:
            return 0.0
        return max(span.closeness(when) for span in self.mentions)


def _span(match: re.Match[str]) -> DateSpan | None:
    try:
        if match["iso"]:
            day = datetime.fromisoformat(match["iso"]).replace(tzinfo=UTC)
            return DateSpan(day, day + timedelta(days=1) - timedelta(microseconds=1), match.span())
        if match["mday"]:
            month, day_n, year = _MONTHS[match["month"].lower()], int(match["mday"]), int(match["myear"])
        elif match["dday"]:
            month, day_n, year = _MONTHS[match["dmonth"].lower()], int(match["dday"]), int(match["dyear"])
        else:
            month, year = _MONTHS[match["mon"].lower()], int(match["year"])
            start = datetime(year, month, 1, tzinfo=UTC)
            last = calendar.monthrange(year, month)[1]
            return DateSpan(start, start + timedelta(days=last) - timedelta(microseconds=1), match.span())
        start = datetime(year, month, day_n, tzinfo=UTC)
        return DateSpan(start, start + timedelta(days=1) - timedelta(microseconds=1), match.span())
    except (ValueError, KeyError, OverflowError):
        return None  # "February 30, 2023" names no day


def question_dates(text: str) -> QuestionDates:
    """The as-of bound and the other dates `text` states (see the module docstring)."""
    as_of: datetime | None = None
    as_of_where: tuple[int, int] | None = None
    mentions: list[DateSpan] = []
    for match in _DATE.finditer(text):
        span = _span(match)
        if span is None:
            continue
        window_start = max(0, match.start() - 120)
        cue = _AS_OF_CUE.search(text[window_start : match.start()])
        if as_of is None and cue is not None and len(cue["gap"].split()) <= _GAP_WORDS:
            as_of = span.end
            as_of_where = (window_start + cue.start(), match.end())
        else:
            mentions.append(span)
    return QuestionDates(as_of=as_of, mentions=tuple(mentions), as_of_where=as_of_where)
