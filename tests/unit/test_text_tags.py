"""Tags: what the write path stores and the read path votes with must agree."""

from __future__ import annotations

from graphmem.text import extract_tags, normalize_tag, numbers_of, same_numbers, split_sentences


def test_normal_form_ignores_case_possessives_articles_plurals_and_punctuation() -> None:
    assert normalize_tag("user's preference") == normalize_tag("user preference") == "user preference"
    assert normalize_tag("The User Preferences!") == "user preference"
    assert normalize_tag("  New   York ") == "new york"
    assert normalize_tag("cities") == "city"
    assert normalize_tag("...") == ""


def test_names_quantities_and_key_phrases_are_extracted() -> None:
    tags = extract_tags("Caroline moved to Paris in May 2023 and adopted 3 dogs for $20.")
    assert tags[:3] == ["Caroline", "Paris", "May"]
    assert {"2023", "3 dogs", "$20"} <= set(tags)
    assert "Bank of England" in extract_tags("The Bank of England raised interest rates to 5.25% in August.")
    assert "quiet restaurant" in extract_tags("The user wants a quiet restaurant near Central Park.")
    assert "Central Park" in extract_tags("The user wants a quiet restaurant near Central Park.")


def test_stop_words_and_sentence_initial_ordinary_words_are_not_tags() -> None:
    assert extract_tags("May I ask what it is?") == []
    assert extract_tags("[09:00:42] Maya: Um, we’ve been doing a broad-market push.") == ["Maya", "broad-market push"]
    assert "The" not in extract_tags("The meeting moved to Lisbon.")
    assert extract_tags("Search quiet restaurants, then search again")[0] == "Search quiet restaurants"


def test_a_query_shares_tags_with_the_fact_that_answers_it() -> None:
    fact = extract_tags("Caroline: I went to the LGBTQ support group yesterday.")
    query = extract_tags("When did Caroline go to the LGBTQ support group?")
    shared = {normalize_tag(t) for t in fact} & {normalize_tag(t) for t in query}
    assert {"caroline", "lgbtq", "support group"} <= shared


def test_a_long_lower_case_phrase_keeps_what_stands_before_its_head() -> None:
    # "mv petrel-iii's service loop" is four key words in a row: the head ("service loop") and the name before
    # it are both tags, so a question written without capitals still names its subject
    query = extract_tags("back on 27 december 2023, what was mv petrel-iii's service loop?")
    fact = extract_tags("the service loop for mv petrel-iii has been set to loop n2 (hull-zeebrugge).")
    assert {"service loop", "mv petrel-iii"} <= {normalize_tag(t) for t in query} & {normalize_tag(t) for t in fact}
    assert extract_tags("catering supplier contract renewal date") == ["catering supplier contract", "renewal date"]


def test_tags_are_deterministic_distinct_and_bounded() -> None:
    text = "Alice met Bob in Rome. Alice met Bob in Rome again. Rome was warm, 30 degrees."
    first = extract_tags(text, max_tags=4)
    assert first == extract_tags(text, max_tags=4)
    assert len(first) == 4 and len({normalize_tag(t) for t in first}) == 4
    assert extract_tags("") == [] and extract_tags("text", max_tags=0) == []


def test_sentences_split_on_boundaries_but_not_abbreviations() -> None:
    text = 'Dr. Smith met J. Doe in Paris. They ate pasta! Was it good? "Yes." Fine\nNew line. 3 dogs ran.'
    assert split_sentences(text) == [
        "Dr. Smith met J. Doe in Paris.",
        "They ate pasta!",
        "Was it good?",
        '"Yes."',
        "Fine",
        "New line.",
        "3 dogs ran.",
    ]


def test_a_text_written_without_capitals_splits_into_its_sentences_too() -> None:
    # a lower-case text has no capital to start a sentence: it used to come back as one "sentence"
    text = "the ward moved to level 2. it opens at 9 a.m. on monday! any questions? ask dr. smith or j. doe."
    assert split_sentences(text) == [
        "the ward moved to level 2.",
        "it opens at 9 a.m. on monday!",
        "any questions?",
        "ask dr. smith or j. doe.",
    ]
    # ... and a text with capitals keeps the capital rule: "the U.S. state of Iowa" is one sentence
    assert split_sentences("Iowa is a U.S. state. it is flat.") == ["Iowa is a U.S. state. it is flat."]
    assert split_sentences("publix is a u.s. grocery chain. it is large.") == [
        "publix is a u.s. grocery chain.",
        "it is large.",
    ]


def test_numbers_are_identity() -> None:
    assert numbers_of("ward-07b, 2024") == ("7", "2024")
    assert numbers_of("٣ beds") == ("3",)  # any script's decimal digits
    assert numbers_of("9" * 5000) == ("9" * 5000,)  # no int conversion, no size limit
    assert not same_numbers("2024-10-02", "2024-01-12") and not same_numbers("2024-10-02", "2024-02-10")
    assert not same_numbers("ward-7b", "ward-4c") and not same_numbers("level", "level 2")
    assert same_numbers("ward-7b", "ward-7b particulars") and same_numbers("colour", "color")
