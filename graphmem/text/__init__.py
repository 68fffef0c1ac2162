"""Text vocabulary shared by the write and read paths: tags, numbers, sentences, stop words and calendar names.

Deterministic and model-free, so what the write path stores and what the read path looks up agree.
"""

from graphmem.text.numbers import numbered_words, numbers_of, same_numbers
from graphmem.text.sentences import split_sentences
from graphmem.text.tags import DEFAULT_MAX_TAGS, extract_tags, names_in, normalize_tag
from graphmem.text.words import CALENDAR_WORDS, MONTH_NAMES, WEEKDAY_NAMES, stopwords

__all__ = [
    "CALENDAR_WORDS",
    "DEFAULT_MAX_TAGS",
    "MONTH_NAMES",
    "WEEKDAY_NAMES",
    "extract_tags",
    "names_in",
    "normalize_tag",
    "numbered_words",
    "numbers_of",
    "same_numbers",
    "split_sentences",
    "stopwords",
]
