"""A fast driver for line-oriented Lark grammars.

Site grammars (``grammars/*.lark``) give every line kind its own terminal and
let Lark's LALR parser check the order of the line kinds. Lark's generic
parse loop costs about 10 us per token here (token objects, callbacks, the
contextual lexer's bookkeeping), which is too slow for tens of thousands of
hands. :class:`LineGrammar` compiles the grammar with Lark and then runs
*Lark's own* tables much more cheaply:

* the lexer: for each LALR state, one regex alternation of the terminals
  that state accepts, in Lark's order (priority, then width, then name) -
  exactly what Lark's contextual lexer does; the fields of a line are the
  regex groups of its terminal, read from the same match;
* the parser: Lark's LALR action/goto table, with whole transitions
  (reductions then shift) memoised per (parser stack, terminal), so after
  warm-up a line costs one regex match and one dict lookup. The grammar's
  language is finite-state in practice, so few distinct stacks occur.

On any error the text is handed to Lark's ordinary ``parse`` so the error is
Lark's own ``UnexpectedInput`` (and should the two ever disagree, Lark's
result wins). ``tests/test_read.py`` checks both give the same tokens.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

import re._constants as _c
import re._parser as _sre_parser

from lark import Lark, Token
from lark.exceptions import UnexpectedInput
from lark.parsers.lalr_analysis import Shift

_ACCEPT = -1
_Step = tuple[int, tuple[int, ...], bool, Callable[[str, int], "re.Match[str] | None"], dict]
_LOOKAHEAD_END = re.compile(r"\(\?=[^()]*\)$")


# One token: (terminal name, its regex groups, 1-based line in the parsed
# text, start and end offsets). A plain tuple: thousands are made per second.
Line = tuple[str, tuple[Optional[str], ...], int, int, int]


class LineGrammarError(ValueError):
    """The text does not follow the grammar; ``error`` is Lark's exception."""

    def __init__(self, error: UnexpectedInput) -> None:
        super().__init__(str(error))
        self.error = error


class _Scanner:
    """One alternation of terminals, with where each terminal's groups are.

    The alternatives are Lark's, in Lark's order, so the first that matches
    is the terminal Lark's lexer would pick. Two rewrites make the match
    cheaper without changing it: each terminal's name is an empty group at
    its *end* (it still closes last, so ``lastgroup`` names the terminal, and
    character), an alternative that starts with a lazily matched name is
    guarded by a look-ahead for literal text it must contain on that line
    (see :func:`_line_guard`): a necessary condition, cheap to refute, and a
    lazy name followed by a literal character only stops where that character
    is (see :func:`_stepped_names`).
    """

    __slots__ = ("match", "groups")

    def __init__(self, terminals: list[Any]) -> None:
        parts: list[str] = []
        self.groups: dict[str, tuple[int, ...]] = {}
        used = 0
        for t in terminals:
            regexp = t.pattern.to_regexp()
            count = re.compile(regexp).groups
            parts.append(f"{_line_guard(regexp)}(?:{_stepped_names(regexp)})(?P<{t.name}>)")
            self.groups[t.name] = tuple(range(used + 1, used + 1 + count))
            used += count + 1
        self.match = re.compile("|".join(parts)).match


def _line_guard(regexp: str) -> str:
    """``(?=[^\\n]*text)`` for the longest literal text every match of
    ``regexp`` contains before any newline, when the match may not start with
    literal text; else ""."""
    try:
        items = _flatten(_sre_parser.parse(regexp))
    except Exception:  # noqa: BLE001 - a guard is only an optimisation
        return ""
    if not items or items[0][0] in (_c.LITERAL, _c.IN):
        return ""
    best: list[int] = []
    run: list[int] = []
    for op, arg in items + [(None, None)]:
        if op is _c.LITERAL and arg != 10:
            run.append(arg)
            continue
        if len(run) > len(best):
            best = run
        run = []
        if not _no_newline(op, arg):
            break  # later text may be on another line
    if len(best) < 3:
        return ""
    return "(?=[^\\n]*" + re.escape("".join(map(chr, best))) + ")"


_LAZY_NAME = ("([^\n]+?)", "([^\\n]+?)")  # common.lark's PLAYER, as Lark writes it
_QUANTIFIERS = "?*+{"


def _stepped_names(regexp: str) -> str:
    """``regexp`` with each top-level lazy name ``([^\\n]+?)`` that a literal
    character c follows rewritten as ``([^\\n](?:[^\\nc]*+c)*?[^\\nc]*+)``.

    Both try the same ends for the name in the same order (the shortest
    first), but the lazy form tries every character (a backtracking jump
    each, the bulk of a line's match time) where the rewrite only stops
    before each c, the only places where the rest can match.
    """
    out: list[str] = []
    depth, i, n = 0, 0, len(regexp)
    while i < n:
        lazy = next((form for form in _LAZY_NAME if regexp.startswith(form, i)), None)
        if lazy is not None and depth == 0:
            follow = _literal_at(regexp, i + len(lazy))
            if follow is not None:
                c = re.escape(follow) if follow.isalnum() else "\\" + follow
                out.append(f"([^\\n](?:[^\\n{c}]*+{c})*?[^\\n{c}]*+)")
                i += len(lazy)
                continue
        ch = regexp[i]
        if ch == "\\":
            out.append(regexp[i : i + 2])
            i += 2
            continue
        if ch == "[":
            end = _class_end(regexp, i)
            out.append(regexp[i:end])
            i = end
            continue
        if ch == "|" and depth == 0:
            return regexp  # a top-level alternative: what follows a name is not known
        depth += (ch == "(") - (ch == ")")
        out.append(ch)
        i += 1
    return "".join(out)


def _literal_at(regexp: str, i: int) -> str | None:
    """The literal character that must match at ``regexp[i]``, if there is one."""
    if i >= len(regexp):
        return None
    if regexp[i] == "\\":
        if i + 1 >= len(regexp) or regexp[i + 1].isalnum() or regexp[i + 1] == "\n":
            return None
        char, after = regexp[i + 1], i + 2
    elif regexp[i] in ".^$*+?{}[]|()\n":
        return None
    else:
        char, after = regexp[i], i + 1
    if after < len(regexp) and regexp[after] in _QUANTIFIERS:
        return None
    return char


def _class_end(regexp: str, i: int) -> int:
    """The index after the character class that starts at ``regexp[i]``."""
    j = i + 1
    if j < len(regexp) and regexp[j] == "^":
        j += 1
    if j < len(regexp) and regexp[j] == "]":
        j += 1
    while j < len(regexp) and regexp[j] != "]":
        j += 2 if regexp[j] == "\\" else 1
    return j + 1


def _flatten(parsed: Any) -> list[tuple[Any, Any]]:
    """The top-level sequence of a parsed regex, groups without flags opened."""
    out: list[tuple[Any, Any]] = []
    for op, arg in parsed:
        if op is _c.SUBPATTERN and not arg[1] and not arg[2]:
            out.extend(_flatten(arg[3]))
        else:
            out.append((op, arg))
    return out


def _no_newline(op: Any, arg: Any) -> bool:
    """True when the item can never match a newline (conservative)."""
    if op is _c.LITERAL:
        return bool(arg != 10)
    if op is _c.NOT_LITERAL:
        return bool(arg == 10)
    if op is _c.ANY or op is _c.AT or op is _c.ASSERT or op is _c.ASSERT_NOT:
        return True
    if op is _c.IN:
        negated = bool(arg) and arg[0][0] is _c.NEGATE
        if negated:
            return (_c.LITERAL, 10) in arg
        return all(
            (kind is _c.LITERAL and value != 10)
            or (kind is _c.RANGE and not value[0] <= 10 <= value[1])
            or (kind is _c.CATEGORY and value in (_c.CATEGORY_DIGIT, _c.CATEGORY_WORD))
            for kind, value in arg
        )
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
        return all(_no_newline(o, a) for o, a in arg[2])
    if op is _c.SUBPATTERN:
        return not arg[1] and not arg[2] and all(_no_newline(o, a) for o, a in arg[3])
    if op is _c.BRANCH:
        return all(_no_newline(o, a) for branch in arg[1] for o, a in branch)
    return False


class LineGrammar:
    """A compiled line grammar: Lark for the definition, a lean loop to run it."""

    def __init__(self, path: str | Path, start: str = "start") -> None:
        self.lark = Lark.open(str(path), parser="lalr", lexer="contextual", cache=True, start=start)
        table = self.lark.parser.parser._parse_table  # Lark's LALR tables (stable since 1.0)
        self._states: dict[Any, dict[str, tuple[Any, Any]]] = table.states
        self._end_state = table.end_states[start]
        self.terminals = {t.name: t for t in self.lark.terminals}
        # Each token is also matched on its own (fallback path, re-splitting
        # names): a trailing look-ahead then becomes an end anchor.
        self.regex = {
            name: re.compile(_LOOKAHEAD_END.sub(r"\\Z", t.pattern.to_regexp()))
            for name, t in self.terminals.items()
        }
        self._stacks: list[tuple[Any, ...]] = [(table.start_states[start],)]
        self._stack_ids: dict[tuple[Any, ...], int] = {self._stacks[0]: 0}
        # Per parser stack (interned as an int): its scanner, and for each
        # terminal met so far a _Step: the next stack, the terminal's group
        # indices, whether the token is kept, the next stack's scanner and steps.
        self._steps: dict[int, dict[str, _Step]] = {}
        self._moves: dict[tuple[int, str], int | None] = {}
        self._scanner_of: dict[int, _Scanner] = {}
        self._scanner_by_terms: dict[frozenset[str], _Scanner] = {}

    # -- the fast path -------------------------------------------------------
    def lines(self, text: str) -> list[Line]:
        """The tokens of ``text`` (which must end with a newline), in order.

        Raises :class:`LineGrammarError` when the text does not parse.
        Terminals whose name starts with ``_`` are matched but not returned.
        """
        out: list[Line] = []
        append = out.append
        pos, end, line, sid = 0, len(text), 1, 0
        match = self._matcher(0)
        steps = self._steps[0]
        while pos < end:
            m = match(text, pos)
            if m is None:
                return self._fallback(text)
            name = m.lastgroup
            step = steps.get(name)  # type: ignore[arg-type]
            if step is None:
                step = self._step(sid, name)  # type: ignore[arg-type]
                if step is None:
                    return self._fallback(text)
            sid, args, keep, match, steps = step
            stop = m.end()
            if keep:
                # group(0, 0, ...) is a tuple even for 0 or 1 field; drop the two 0s
                append((name, m.group(*args)[2:], line, pos, stop))  # type: ignore[arg-type]
            if text[stop - 1] == "\n":
                line += 1
            pos = stop
        if self._move(sid, "$END") != _ACCEPT:
            return self._fallback(text)
        return out

    # -- stepping, for callers that build as they scan --------------------------
    def begin(self) -> tuple[int, Callable[[str, int], re.Match[str] | None], dict[str, _Step]]:
        """The start stack, its scanner and its memoised steps (see :meth:`lines`)."""
        return 0, self._matcher(0), self._steps[0]

    def step(self, sid: int, terminal: str) -> _Step | None:
        """What reading ``terminal`` on stack ``sid`` does, or None if it is an error."""
        return self._step(sid, terminal)

    @functools.lru_cache(maxsize=None)  # noqa: B019 - grammars live as long as the process
    def ends_line(self, terminal: str) -> bool:
        """True when every match of ``terminal`` ends with a newline."""
        try:
            items = _flatten(_sre_parser.parse(self.terminals[terminal].pattern.to_regexp()))
        except Exception:  # noqa: BLE001 - then callers look at the text
            return False
        return bool(items) and items[-1][0] is _c.LITERAL and items[-1][1] == 10

    def accepts(self, sid: int) -> bool:
        """True when the text may end on stack ``sid``."""
        return self._move(sid, "$END") == _ACCEPT

    def _matcher(self, sid: int) -> Callable[[str, int], re.Match[str] | None]:
        """The scanner of a parser stack: the terminals its top state accepts."""
        if sid in self._scanner_of:
            return self._scanner_of[sid].match
        state = self._stacks[sid][-1]
        accepts = frozenset(name for name in self._states[state] if name in self.terminals)
        scanner = self._scanner_by_terms.get(accepts)
        if scanner is None:
            ordered = sorted(
                (self.terminals[name] for name in accepts),
                key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
            )
            scanner = self._scanner_by_terms[accepts] = _Scanner(ordered)
        self._scanner_of[sid] = scanner
        self._steps.setdefault(sid, {})
        return scanner.match

    def _step(self, sid: int, terminal: str) -> _Step | None:
        """What reading ``terminal`` on stack ``sid`` does: memoised."""
        known = self._steps.setdefault(sid, {})
        if terminal not in known:
            nxt = self._move(sid, terminal)
            if nxt is None:
                return None
            self._matcher(sid)
            index = self._scanner_of[sid].groups[terminal]
            match = self._matcher(nxt) if nxt != _ACCEPT else self._scanner_of[sid].match
            known[terminal] = (nxt, (0, 0, *index), not terminal.startswith("_"), match,
                               self._steps.setdefault(nxt, {}))  # fmt: skip
        return known[terminal]

    def _move(self, sid: int, terminal: str) -> int | None:
        """Reduce as Lark would, then shift ``terminal``: the new stack's id."""
        if (sid, terminal) in self._moves:
            return self._moves[(sid, terminal)]
        self._moves[(sid, terminal)] = result = self._reduce_shift(sid, terminal)
        return result

    def _reduce_shift(self, sid: int, terminal: str) -> int | None:
        states = self._states
        stack = list(self._stacks[sid])
        while True:
            action = states[stack[-1]].get(terminal)
            if action is None:
                return None
            kind, arg = action
            if kind is Shift:
                stack.append(arg)
                key = tuple(stack)
                if key not in self._stack_ids:
                    self._stack_ids[key] = len(self._stacks)
                    self._stacks.append(key)
                return self._stack_ids[key]
            size = len(arg.expansion)
            if size:
                del stack[-size:]
            stack.append(states[stack[-1]][arg.origin.name][1])
            if terminal == "$END" and stack[-1] == self._end_state:
                return _ACCEPT

    # -- the reference path ----------------------------------------------------
    def _fallback(self, text: str) -> list[Line]:
        """Parse with Lark itself: its error, or its tokens if it disagrees."""
        try:
            tree = self.lark.parse(text)
        except UnexpectedInput as error:
            raise LineGrammarError(error) from None
        return self.from_tokens(tree.children, text)  # type: ignore[arg-type]

    def from_tokens(self, tokens: Iterable[Token], text: str) -> list[Line]:
        """Lines from Lark's own tokens (used by the reference path and tests)."""
        out: list[Line] = []
        offsets = _line_offsets(text)
        for token in tokens:
            match = self.regex[token.type].match(token)
            assert match is not None
            line = token.line or 1
            start = offsets[line - 1] + (token.column or 1) - 1
            out.append((token.type, match.groups(), line, start, start + len(token)))
        return out

    def reference_lines(self, text: str) -> list[Line]:
        """The tokens as Lark's own parser produces them."""
        return self.from_tokens(self.lark.parse(text).children, text)  # type: ignore[arg-type]


def grammar_dir() -> Path:
    """Where the ``.lark`` files are: inside the installed package (a wheel
    ships them as ``studbook/grammars``), else the source tree's ``grammars/``."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "grammars", package.parents[1] / "grammars"):
        if (candidate / "common.lark").is_file():
            return candidate
    raise FileNotFoundError(f"no grammars/ directory beside or inside {package}")


@functools.cache
def load_grammar(name: str) -> LineGrammar:
    """The compiled grammar ``<name>.lark``, one per process."""
    return LineGrammar(grammar_dir() / f"{name}.lark")


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    offsets.extend(m.end() for m in re.finditer("\n", text))
    return offsets


__all__ = ["Line", "LineGrammar", "LineGrammarError", "grammar_dir", "load_grammar"]
