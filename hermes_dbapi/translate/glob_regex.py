"""SQLite's GLOB pattern as a server regular expression.

Used by the translation for a literal pattern and by binding for a bound one
(``x GLOB ?``): ``*`` ``?`` ``[...]`` ``[^...]``, case-sensitive, matching the
whole text; every other character is written by its code point so that nothing
in the pattern is read as regular-expression syntax.
"""

from __future__ import annotations

import re


def _glob_regex(pattern: str) -> str:
    out, i = ["^"], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "*":
            out.append(".*")
        elif ch == "?":
            out.append(".")
        elif ch == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                out.append(re.escape(ch))
            else:
                body = pattern[i + 1:end]
                negate = body.startswith("^")
                body = body[1:] if negate else body
                items = "".join(c if c == "-" else "\\x{%x}" % ord(c) for c in body)
                out.append("[" + ("^" if negate else "") + items + "]")
                i = end
        else:
            out.append("\\x{%x}" % ord(ch))
        i += 1
    out.append("$")
    return "".join(out)


def server_regex(pattern: str, mysql: bool) -> str:
    """A GLOB pattern as the server's regular expression (whole text, case-sensitive)."""
    regex = _glob_regex(pattern)
    if mysql:
        return "(?s-i)" + regex
    # PG's ARE syntax: \x{hh} is written \x hh… with no braces; use \uXXXX / \UXXXXXXXX
    return re.sub(r"\\x\{([0-9a-f]+)\}", lambda m: "\\U%08x" % int(m.group(1), 16), regex)
