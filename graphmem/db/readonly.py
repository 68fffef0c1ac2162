"""The read-only statement guard of `graphmem cypher`: refuse by parsing, before the server sees a statement.

`refusal(text)` tokenises the statement the way Cypher does (comments, string literals and backtick names
dropped; keywords case-insensitive across whitespace and comments) and returns why it is refused, or None.
Refused: `LOAD CSV`, `TERMINATE TRANSACTION(S)`, `USE`, writes, admin and schema commands, `CALL` of
any procedure not in `READ_ONLY_PROCEDURES`, and naming a label the console never shows (`HIDDEN_LABELS`:
API keys). Characters whose meaning could differ between this tokeniser
and the server's (control and format characters, unusual line separators) refuse the statement outright.
The caller still runs `EXPLAIN` and refuses anything the planner does not call a read.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from graphmem.model.nodes import HIDDEN_LABELS

# Read-only procedures an analyst may CALL (compared case-insensitively). Anything else is refused:
# db.stats.collect, dbms.killQuery, db.createLabel, dbms.listConfig...
READ_ONLY_PROCEDURES = frozenset(
    name.lower()
    for name in (
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.info",
        "db.ping",
        "db.schema.visualization",
        "db.schema.nodeTypeProperties",
        "db.schema.relTypeProperties",
        "db.index.fulltext.queryNodes",
        "db.index.fulltext.queryRelationships",
        "db.index.fulltext.listAvailableAnalyzers",
        "db.index.vector.queryNodes",
        "db.index.vector.queryRelationships",
        "dbms.components",
        "dbms.showCurrentUser",
    )
)
# Of those, the ones Neo4j runs in DBMS mode: EXPLAIN reports such a statement as query type "s".
DBMS_MODE_PROCEDURES = frozenset({"dbms.components", "dbms.showcurrentuser"})

# Clauses that write data or schema, and administration commands (checked where a keyword can stand).
WRITE_KEYWORDS = frozenset({"CREATE", "MERGE", "DELETE", "DETACH", "SET", "REMOVE", "FOREACH", "INSERT"})
ADMIN_KEYWORDS = frozenset({"DROP", "ALTER", "RENAME", "GRANT", "DENY", "REVOKE", "DEALLOCATE", "REALLOCATE"})
# START / STOP / ENABLE are admin commands only before one of these (`MATCH (start)-->(stop)` is a read).
ADMIN_LEADERS = frozenset({"START", "STOP", "ENABLE", "SUSPEND", "REACTIVATE"})
ADMIN_OBJECTS = frozenset({"DATABASE", "DATABASES", "SERVER", "SERVERS", "USER", "USERS", "COMPOSITE"})

# Line separators other than \r and \n: some lexers end a `//` comment there, some do not.
AMBIGUOUS_SEPARATORS = frozenset("\u2028\u2029\x85\x0b\x0c")
# Tokens after which an identifier is a property key, parameter, label or type, never a clause keyword.
NAME_CONTEXT = frozenset({".", "$", ":", "|", "&", "!"})
# Tokens after which a name is (or may be) a label in a label expression: `:A`, `:A|B`, `:A&B`, `:!A`.
LABEL_CONTEXT = frozenset({":", "|", "&", "!"})


@dataclass(frozen=True)
class Token:
    kind: str  # "word" (unquoted identifier/keyword), "name" (backtick-quoted), "string", "punct"
    text: str

    @property
    def keyword(self) -> str | None:
        """The word, case-folded and upper-cased, when this is an unquoted identifier (so possibly a keyword);
        compatibility forms fold too (`ſ`, fullwidth letters), so no look-alike spelling slips past."""
        return unicodedata.normalize("NFKC", self.text).casefold().upper() if self.kind == "word" else None


class StatementError(ValueError):
    """The statement cannot be tokenised safely (unterminated literal, odd character...)."""


def _is_word_start(ch: str) -> bool:
    return ch == "_" or ch.isalpha()


def _is_word_part(ch: str) -> bool:
    return ch == "_" or ch.isalnum()


def _quoted(text: str, start: int, quote: str) -> tuple[str, int]:
    """The body of the literal opening at `start` and the index after it. Strings take backslash escapes;
    backtick names double the backtick."""
    i = start + 1
    body: list[str] = []
    while i < len(text):
        ch = text[i]
        if quote != "`" and ch == "\\":
            body.append(text[i : i + 2])
            i += 2
            continue
        if ch == quote:
            if quote == "`" and text[i + 1 : i + 2] == "`":
                body.append("`")
                i += 2
                continue
            return "".join(body), i + 1
        body.append(ch)
        i += 1
    what = "backtick name" if quote == "`" else "string literal"
    raise StatementError(f"unterminated {what}")


def tokenize(text: str) -> list[Token]:
    """Cypher tokens, comments and whitespace dropped. Raises StatementError on text it cannot read safely."""
    odd = next((ch for ch in text if ch in AMBIGUOUS_SEPARATORS), None)
    if odd is not None:
        raise StatementError(f"unusual line separator U+{ord(odd):04X}")
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif text.startswith("//", i):
            while i < len(text) and text[i] not in "\r\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise StatementError("unterminated /* comment")
            i = end + 2
        elif ch in "'\"`":
            body, i = _quoted(text, i, ch)
            tokens.append(Token("name" if ch == "`" else "string", body))
        elif _is_word_start(ch):
            j = i + 1
            while j < len(text) and _is_word_part(text[j]):
                j += 1
            tokens.append(Token("word", text[i:j]))
            i = j
        elif unicodedata.category(ch)[0] == "C":
            raise StatementError(f"unexpected control or format character U+{ord(ch):04X}")
        else:
            tokens.append(Token("punct", ch))
            i += 1
    return tokens


def _procedure_name(tokens: list[Token], i: int) -> tuple[str, int] | None:
    """The dotted procedure name starting at tokens[i] (words or backtick names), and the index after it."""
    parts: list[str] = []
    while i < len(tokens) and tokens[i].kind in ("word", "name"):
        parts.append(tokens[i].text)
        i += 1
        if i < len(tokens) and tokens[i].text == "." and tokens[i].kind == "punct":
            i += 1
            continue
        break
    return (".".join(parts), i) if parts else None


def procedures_called(text: str) -> set[str]:
    """The lower-cased names of the procedures a statement CALLs (for a statement `refusal` passed)."""
    tokens = tokenize(text)
    names: set[str] = set()
    for i, token in enumerate(tokens):
        before = tokens[i - 1].text if i > 0 and tokens[i - 1].kind == "punct" else ""
        if token.keyword == "CALL" and before not in (".", "$"):
            found = _procedure_name(tokens, i + 1)
            if found:
                names.add(found[0].lower())
    return names


def refusal(text: str) -> str | None:
    """Why the console refuses this statement, or None when parsing finds nothing but reads."""
    try:
        tokens = tokenize(text)
    except StatementError as exc:
        return f"cannot read the statement safely: {exc}"
    if not tokens:
        return "empty statement"
    for i, token in enumerate(tokens):
        if token.kind == "punct" and token.text == ";" and i + 1 < len(tokens):
            return "one statement at a time (no ';' between statements)"
        before = tokens[i - 1].text if i > 0 and tokens[i - 1].kind == "punct" else ""
        if token.kind in ("word", "name") and token.text in HIDDEN_LABELS and before in LABEL_CONTEXT:
            return f"{token.text} nodes (API keys) are not readable through the console"
        word = token.keyword
        if word is None:
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        after_word = after.keyword if after is not None else None
        # Checked wherever the word stands (only a property key `n.load` is exempt): these reach files,
        # URLs, other clients' transactions or server state.
        if before not in (".", "$"):
            if word == "LOAD" and after_word == "CSV":
                return "LOAD CSV reads files and URLs"
            if word == "TERMINATE" and after is not None and after.kind != "punct":
                return "TERMINATE manages other transactions"
            if word == "CALL" and after is not None and after.kind in ("word", "name"):
                found = _procedure_name(tokens, i + 1)
                name = found[0] if found else ""
                if name.lower() not in READ_ONLY_PROCEDURES:
                    return f"CALL {name}: not on the console's list of read-only procedures"
        if before in NAME_CONTEXT or (after is not None and after.kind == "punct" and after.text == ":"):
            continue  # a label, type, property key or map key
        if word in WRITE_KEYWORDS:
            return f"{word} writes (the console is read-only)"
        if word in ADMIN_KEYWORDS:
            return f"{word} is an administration or schema command"
        if word in ADMIN_LEADERS and after_word in ADMIN_OBJECTS:
            return f"{word} {after_word} is an administration command"
        if word == "USE" and after is not None and after.kind in ("word", "name"):
            return "USE: the console reads the configured database only"
    return None
