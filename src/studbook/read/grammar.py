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

import re
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

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
    """One alternation of terminals, with where each terminal's groups are."""

    __slots__ = ("match", "groups")

    def __init__(self, terminals: list[Any]) -> None:
        pattern = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)
        compiled = re.compile(pattern)
        self.match = compiled.match
        self.groups: dict[str, tuple[int, ...]] = {}
        for t in terminals:
            first = compiled.groupindex[t.name]
            count = re.compile(t.pattern.to_regexp()).groups
            self.groups[t.name] = tuple(range(first + 1, first + 1 + count))


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


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    offsets.extend(m.end() for m in re.finditer("\n", text))
    return offsets


__all__ = ["Line", "LineGrammar", "LineGrammarError"]
