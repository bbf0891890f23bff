"""Every violation message is defined once (``engine/messages.py``), filed under its rule.

The table and the call sites are kept in step by reading the engine's sources
(``ast``): every ``report(MESSAGE, line, **fields)`` names a message of the
table and gives exactly its template's fields, every message is reported
somewhere, and no violation is built anywhere else. The texts themselves are
compared by the rule tests (``test_rules.py`` and the others); here, how a
template writes its fields.
"""

from __future__ import annotations

import ast
from decimal import Decimal
from pathlib import Path
from string import Formatter

import pytest
from test_rule_ids import _book_ids

from studbook.cards import parse_cards
from studbook.engine import messages, rules
from studbook.engine.messages import MESSAGES, SAYS, Message
from studbook.engine.settle import finish
from studbook.engine.state import StudState
from studbook.events import Collect, PostAnte, Stakes, Street

ENGINE = Path(messages.__file__).parent
SOURCES = sorted(p for p in ENGINE.rglob("*.py") if p != Path(messages.__file__))
RULE_NAMES = {value: name for name, value in vars(rules).items() if name.isupper() and isinstance(value, str)}

# a value of each kind a template can write, by format spec
SAMPLES: dict[str, object] = {
    "": Decimal("0.5"),
    "cards": (*parse_cards("Ah Kd"), None),
    "list": (Decimal(2), Decimal("0.25")),
    "or": (Decimal(4), Decimal(8)),
    "shares": [("ann", Decimal(3)), ("bob", (Decimal(1), Decimal(2)))],
    "street": Street.FIFTH,
}


def _report_calls() -> list[tuple[str, ast.Call]]:
    """Every ``<x>.report(...)`` call in the engine's sources, as (where, call)."""
    found = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "report":
                found.append((f"{path.relative_to(ENGINE)}:{node.lineno}", node))
    return found


def _named(expr: ast.expr) -> list[str]:
    """The message names a call's first argument can be: a name, or a choice of names."""
    if isinstance(expr, ast.IfExp):
        return _named(expr.body) + _named(expr.orelse)
    assert isinstance(expr, ast.Name), f"{ast.unparse(expr)}: name the message"
    return [expr.id]


CALLS = _report_calls()


def test_the_scan_finds_the_call_sites() -> None:
    files = {where.split(":")[0] for where, _ in CALLS}
    assert {"table.py", "settle.py", "rules/deal.py", "rules/order.py", "rules/bringin.py", "rules/bets.py",
            "rules/showdown.py"} <= files
    assert len(CALLS) >= 90


def test_every_message_is_filed_under_a_rule_id() -> None:
    assert {name: m.rule for name, m in MESSAGES.items() if m.rule not in rules.RULE_IDS} == {}


def test_every_message_is_filed_under_a_rule_of_the_book() -> None:
    book = _book_ids()  # docs/rules.md
    assert {name: m.rule for name, m in MESSAGES.items() if m.rule not in book} == {}


def test_each_message_is_named_after_its_rule() -> None:
    """``DEAL_ANTE_TWICE`` says ``deal.ante``: the name tells the rule."""
    wrong = [name for name, m in MESSAGES.items() if not name.startswith(RULE_NAMES[m.rule] + "_")]
    assert wrong == []


def test_says_answers_what_each_rule_can_say() -> None:
    assert set(SAYS) == rules.RULE_IDS
    assert sorted(m.template for ms in SAYS.values() for m in ms) == sorted(m.template for m in MESSAGES.values())
    assert all(m.rule == rule for rule, ms in SAYS.items() for m in ms)
    # a rule says something exactly where it is checked (CHECKED_IN); a documenting rule says nothing
    assert {rule for rule, ms in SAYS.items() if ms} == {rule for rule, where in rules.CHECKED_IN.items() if where}
    assert SAYS[rules.SHOWDOWN_NO_REFUND] == ()


def test_no_two_messages_of_a_rule_say_the_same() -> None:
    for rule, said in SAYS.items():
        templates = [m.template for m in said]
        assert len(set(templates)) == len(templates), rule


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_every_template_writes_its_fields(name: str) -> None:
    """Each template formats with its declared fields (values of the kind its specs
    take), names them plainly, uses known specs, and leaves no placeholder behind."""
    message = MESSAGES[name]
    assert all(field.isidentifier() for field in message.fields), message.template
    assert message.specs <= set(SAMPLES) - {""}
    specs = {field: spec for _, field, spec, _ in messages._WRITER.parse(message.template) if field}
    text = message.text({field: SAMPLES[spec or ""] for field, spec in specs.items()})
    assert "{" not in text and "}" not in text
    assert text.strip() == text and text
    for field in message.fields:  # each field is needed
        with pytest.raises(KeyError):
            message.text({f: SAMPLES[specs[f] or ""] for f in message.fields if f != field})


def test_fields_are_written_as_the_engine_writes_amounts_and_cards() -> None:
    say = Message(rules.BET_SIZE, "{a} {b} {c} [{cards:cards}] {sizes:or} ({names:list}); {who:shares}; "
                                  "{until:street}, {end:street}")
    text = say.text({
        "a": Decimal("2.00"), "b": Decimal("0.5"), "c": Street.FOURTH, "cards": (*parse_cards("Ah 2c"), None),
        "sizes": (Decimal(4), Decimal("8.5")), "names": ("ann", "bob"),
        "who": [("ann", Decimal("1.50")), ("bob", (Decimal(1), Decimal(2))), ("cy", (Decimal(3), Decimal(3)))],
        "until": Street.SEVENTH, "end": "the showdown",
    })
    assert text == "2 0.50 4th [Ah 2c ??] 4 or 8.50 (ann, bob); ann 1.50, bob 1-2, cy 3; 7th street, the showdown"


@pytest.mark.parametrize("where, call", CALLS, ids=[where for where, _ in CALLS])
def test_each_call_gives_exactly_its_messages_fields(where: str, call: ast.Call) -> None:
    assert len(call.args) == 2, "report(MESSAGE, line, field=value, ...)"
    assert all(k.arg is not None for k in call.keywords), "fields by name, not **"
    given = {k.arg for k in call.keywords}
    for name in _named(call.args[0]):
        assert name in MESSAGES, f"{name} is not a message of engine/messages.py"
        assert given == MESSAGES[name].fields, name
    # the words are the template's: a field is a value, never text put together at the call
    assert not [n for n in ast.walk(call) if isinstance(n, ast.JoinedStr)]


def test_every_message_is_reported_somewhere() -> None:
    used = {name for _, call in CALLS for name in _named(call.args[0])}
    assert sorted(set(MESSAGES) - used) == []


def test_violations_are_made_only_by_report() -> None:
    """Nothing in the engine but ``Message.violation`` (called by ``Table.report``, and
    nothing else) makes a Violation (so every message and its fields come from the table)."""
    makers = {"new_violation", "Violation"}
    users = sorted({
        path.relative_to(ENGINE).as_posix() for path in [*SOURCES, Path(messages.__file__)]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in makers
    })
    assert users == ["messages.py"]
    callers = sorted({
        path.relative_to(ENGINE).as_posix() for path in SOURCES
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "violation"
    })
    assert callers == ["table.py"]


def test_a_reported_violation_carries_its_messages_rule_and_text() -> None:
    """Through the engine: a second ante is deal.ante, written by its template."""
    state = StudState.new("stud", Stakes(Decimal(2), Decimal(4), Decimal("0.5"), Decimal(1)),
                          [(1, "ann", Decimal(100)), (3, "bob", Decimal(80))])
    state.apply(PostAnte(file="", line=3, player="ann", amount=Decimal("0.5")))
    state.apply(PostAnte(file="", line=4, player="ann", amount=Decimal("0.5")))
    (violation,) = state.violations
    assert (violation.rule, violation.line, violation.message) == (rules.DEAL_ANTE, 4, "ann posts a second ante")


def test_a_collection_from_a_hand_without_a_pot_says_there_is_none() -> None:
    """Nobody put a chip in: a collection from side pot 1 is named as from a hand with no pot
    (it was written "there are only -1 side pot" before the messages were defined once)."""
    state = StudState.new("stud", Stakes(Decimal(2), Decimal(4), Decimal("0.5"), Decimal(1)),
                          [(1, "ann", Decimal(100)), (3, "bob", Decimal(80))])
    state.apply(Collect(file="", line=5, player="ann", amount=Decimal(1), pot=1, half=None))
    finish(state, 6)
    assert [(v.rule, v.line, v.message) for v in state.violations] == [
        (rules.POT_TOTAL, 5, "collected 1 is more than the pot 0"),
        (rules.POT_SIDE, 5, "ann collects from side pot 1, but nobody put a chip in: the hand has no pot"),
    ]


def test_a_messages_values_are_fields_of_its_template() -> None:
    """What a message names as expected and actual are fields its call sites give."""
    def names(spec: str | tuple[str, ...] | None) -> set[str]:
        return set() if spec is None else {spec} if isinstance(spec, str) else set(spec)

    wrong = {name: (m.expected, m.actual) for name, m in MESSAGES.items()
             if not names(m.expected) | names(m.actual) <= m.fields}
    assert wrong == {}


def test_a_player_at_fault_is_named_by_the_message() -> None:
    """A message whose party is the player names the player (its ``player`` field)."""
    from studbook.engine.result import Party

    assert {name for name, m in MESSAGES.items() if m.at_fault is Party.PLAYER and "player" not in m.fields} == set()


def test_a_reported_violation_carries_its_fields() -> None:
    """Through the engine: an ante of the wrong amount is the site's, naming the player,
    their seat, the ante expected and the amount posted."""
    from studbook.engine.result import Party

    state = StudState.new("stud", Stakes(Decimal(2), Decimal(4), Decimal("0.5"), Decimal(1)),
                          [(1, "ann", Decimal(100)), (3, "bob", Decimal(80))])
    state.apply(PostAnte(file="", line=5, player="bob", amount=Decimal("0.25")))
    [v] = state.violations
    assert (v.rule, v.line, v.street, v.party, v.player, v.seat, v.expected, v.actual) == (
        "deal.ante", 5, None, Party.SITE, "bob", 3, Decimal("0.5"), Decimal("0.25"))
    assert v.message == "ante should be 0.50, not 0.25 from bob"


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_each_message_makes_a_violation_with_its_fields(name: str) -> None:
    """Every message of the table, given sample fields: the violation carries its rule,
    text, party, the player named and their seat, and exactly the values it names."""
    from studbook.engine.result import Party

    m = MESSAGES[name]
    specs = {field: spec for _, field, spec, _ in Formatter().parse(m.template) if field is not None}
    fields = {field: "ann" if field == "player" else SAMPLES[spec] for field, spec in specs.items()}
    v = m.violation(9, Street.FOURTH, {"ann": 2}, fields)
    assert (v.rule, v.line, v.message, v.party) == (m.rule, 9, m.text(fields), m.at_fault)
    assert (v.player, v.seat) == (("ann", 2) if "player" in fields else (None, None))
    assert v.street == (fields["street"] if isinstance(fields.get("street"), Street) else Street.FOURTH)
    assert (v.expected is None, v.actual is None) == (m.expected is None, m.actual is None)
    assert v.party in (Party.PLAYER, Party.SITE) and hash(v) == hash(v)  # frozen values: hashable


def test_every_count_field_is_a_field_a_message_names() -> None:
    """``messages._COUNTS`` says which fields' ints are counts (any other int a violation keeps
    is an amount of chips, kept as its Decimal): a name there that no message's template
    uses is a stale entry, or a misspelt one that leaves the real count field an amount."""
    used = {name for m in MESSAGES.values() for name in m.fields}
    assert sorted(messages._COUNTS - used) == []
