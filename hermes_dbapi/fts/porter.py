"""The Porter stemmer exactly as FTS5's ``porter`` tokenizer applies it.

FTS5 stems the UTF-8 bytes of each token of its parent tokenizer: tokens
shorter than 3 or longer than 64 bytes pass through, and bytes outside
a-z are consonants.  The rule set is Porter's (with the ``bli``/``logi``
step-2 variants); a suffix rule fires only on the longest matching suffix of
its group, and ``y`` is a vowel after a consonant (but, in the ``*v*`` test,
anywhere except the first byte).
"""

from __future__ import annotations

MIN_TOKEN = 3
MAX_TOKEN = 64

_VOWELS = frozenset(b"aeiou")
_Y = ord("y")


def _is_vowel(c: int, y_is_vowel: bool) -> bool:
    return c in _VOWELS or (y_is_vowel and c == _Y)


def _gobble_vc(s: bytes, start: int, end: int, prev_cons: bool) -> int:
    """Length consumed by one vowel run then consonant, or 0 if none."""
    cons = prev_cons
    i = start
    while i < end:
        cons = not _is_vowel(s[i], cons)
        if not cons:
            break
        i += 1
    i += 1
    while i < end:
        cons = not _is_vowel(s[i], cons)
        if cons:
            return i + 1 - start
        i += 1
    return 0


def _m_gt0(s: bytes, n: int) -> bool:
    return _gobble_vc(s, 0, n, False) > 0


def _m_gt1(s: bytes, n: int) -> bool:
    k = _gobble_vc(s, 0, n, False)
    return bool(k) and _gobble_vc(s, k, n, True) > 0


def _m_eq1(s: bytes, n: int) -> bool:
    k = _gobble_vc(s, 0, n, False)
    return bool(k) and _gobble_vc(s, k, n, True) == 0


def _o_star(s: bytes, n: int) -> bool:
    if s[n - 1] in b"wxy":
        return False
    mask = 0
    cons = False
    for i in range(n):
        cons = not _is_vowel(s[i], cons)
        mask = (mask << 1) + int(cons)
    return (mask & 7) == 5


def _has_vowel(s: bytes, n: int) -> bool:
    return any(_is_vowel(s[i], i > 0) for i in range(n))


def _m_gt1_s_or_t(s: bytes, n: int) -> bool:
    return s[n - 1] in b"st" and _m_gt1(s, n)


# Each step: penultimate byte -> ordered (suffix, replacement, condition).
# Only the first suffix (in order) that matches is considered.
_Rule = tuple[bytes, bytes, object]
_STEP2: dict[int, tuple[_Rule, ...]] = {
    ord("a"): ((b"ational", b"ate", _m_gt0), (b"tional", b"tion", _m_gt0)),
    ord("c"): ((b"enci", b"ence", _m_gt0), (b"anci", b"ance", _m_gt0)),
    ord("e"): ((b"izer", b"ize", _m_gt0),),
    ord("g"): ((b"logi", b"log", _m_gt0),),
    ord("l"): (
        (b"bli", b"ble", _m_gt0), (b"alli", b"al", _m_gt0),
        (b"entli", b"ent", _m_gt0), (b"eli", b"e", _m_gt0),
        (b"ousli", b"ous", _m_gt0),
    ),
    ord("o"): (
        (b"ization", b"ize", _m_gt0), (b"ation", b"ate", _m_gt0),
        (b"ator", b"ate", _m_gt0),
    ),
    ord("s"): (
        (b"alism", b"al", _m_gt0), (b"iveness", b"ive", _m_gt0),
        (b"fulness", b"ful", _m_gt0), (b"ousness", b"ous", _m_gt0),
    ),
    ord("t"): (
        (b"aliti", b"al", _m_gt0), (b"iviti", b"ive", _m_gt0),
        (b"biliti", b"ble", _m_gt0),
    ),
}
_STEP3: dict[int, tuple[_Rule, ...]] = {
    ord("a"): ((b"ical", b"ic", _m_gt0),),
    ord("s"): ((b"ness", b"", _m_gt0),),
    ord("t"): ((b"icate", b"ic", _m_gt0), (b"iciti", b"ic", _m_gt0)),
    ord("u"): ((b"ful", b"", _m_gt0),),
    ord("v"): ((b"ative", b"", _m_gt0),),
    ord("z"): ((b"alize", b"al", _m_gt0),),
}
_STEP4: dict[int, tuple[_Rule, ...]] = {
    ord("a"): ((b"al", b"", _m_gt1),),
    ord("c"): ((b"ance", b"", _m_gt1), (b"ence", b"", _m_gt1)),
    ord("e"): ((b"er", b"", _m_gt1),),
    ord("i"): ((b"ic", b"", _m_gt1),),
    ord("l"): ((b"able", b"", _m_gt1), (b"ible", b"", _m_gt1)),
    ord("n"): (
        (b"ant", b"", _m_gt1), (b"ement", b"", _m_gt1),
        (b"ment", b"", _m_gt1), (b"ent", b"", _m_gt1),
    ),
    ord("o"): ((b"ion", b"", _m_gt1_s_or_t), (b"ou", b"", _m_gt1)),
    ord("s"): ((b"ism", b"", _m_gt1),),
    ord("t"): ((b"ate", b"", _m_gt1), (b"iti", b"", _m_gt1)),
    ord("u"): ((b"ous", b"", _m_gt1),),
    ord("v"): ((b"ive", b"", _m_gt1),),
    ord("z"): ((b"ize", b"", _m_gt1),),
}


def _apply(buf: bytearray, rules: dict[int, tuple[_Rule, ...]]) -> None:
    n = len(buf)
    if n < 2:
        return
    for suffix, repl, cond in rules.get(buf[n - 2], ()):
        k = len(suffix)
        if n > k and buf.endswith(suffix):
            if cond(buf, n - k):  # type: ignore[operator]
                buf[n - k :] = repl
            return


def _step1a(buf: bytearray) -> None:
    n = len(buf)
    if buf[n - 1] != ord("s"):
        return
    if buf[n - 2] == ord("e"):
        if (n > 4 and buf[n - 4 : n - 2] == b"ss") or (n > 3 and buf[n - 3] == ord("i")):
            del buf[n - 2 :]
        else:
            del buf[n - 1 :]
    elif buf[n - 2] != ord("s"):
        del buf[n - 1 :]


def _step1b(buf: bytearray) -> bool:
    n = len(buf)
    pen = buf[n - 2]
    if pen == ord("e"):
        if n > 3 and buf.endswith(b"eed"):
            if _m_gt0(buf, n - 3):
                del buf[n - 1 :]
        elif n > 2 and buf.endswith(b"ed"):
            if _has_vowel(buf, n - 2):
                del buf[n - 2 :]
                return True
    elif pen == ord("n"):
        if n > 3 and buf.endswith(b"ing") and _has_vowel(buf, n - 3):
            del buf[n - 3 :]
            return True
    return False


def _step1b2(buf: bytearray) -> bool:
    n = len(buf)
    if n > 2 and (buf.endswith(b"at") or buf.endswith(b"bl") or buf.endswith(b"iz")):
        buf.append(ord("e"))
        return True
    return False


def stem_bytes(token: bytes) -> bytes:
    """Stem one UTF-8 token the way FTS5's porter tokenizer does."""
    n = len(token)
    if n > MAX_TOKEN or n < MIN_TOKEN:
        return token
    buf = bytearray(token)
    _step1a(buf)
    if _step1b(buf) and not _step1b2(buf):
        c = buf[-1]
        if (
            len(buf) >= 2 and not _is_vowel(c, False) and c not in b"lsz"
            and c == buf[-2]
        ):
            del buf[-1:]
        elif _m_eq1(buf, len(buf)) and _o_star(buf, len(buf)):
            buf.append(ord("e"))
    if buf[-1] == _Y and _has_vowel(buf, len(buf) - 1):
        buf[-1] = ord("i")
    _apply(buf, _STEP2)
    _apply(buf, _STEP3)
    _apply(buf, _STEP4)
    n = len(buf)
    if buf[n - 1] == ord("e") and (
        _m_gt1(buf, n - 1) or (_m_eq1(buf, n - 1) and not _o_star(buf, n - 1))
    ):
        del buf[n - 1 :]
    n = len(buf)
    if n > 1 and buf[n - 1] == ord("l") and buf[n - 2] == ord("l") and _m_gt1(buf, n - 1):
        del buf[n - 1 :]
    return bytes(buf)


def stem(token: str) -> str:
    """Stem a token given as text (see ``stem_bytes``).

    A stem that cuts a multi-byte character (possible only in contrived
    input) keeps the stray bytes as surrogate escapes so it stays distinct.
    """
    if token.isascii():
        if len(token) < MIN_TOKEN or len(token) > MAX_TOKEN:
            return token
        return stem_bytes(token.encode()).decode()
    return stem_bytes(token.encode()).decode("utf-8", "surrogateescape")
