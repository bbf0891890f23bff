"""Random legal stud hands, played through the engine and written as PokerStars text.

The simulator deals a shuffled deck from ``random.Random(seed)`` and asks the
engine (:meth:`StudState.legal_actions`) what the player to act may do: it
never decides a bet size, a turn or a bring-in itself. Every event it makes is
applied to the engine as it is made, so the engine sees exactly the hand the
log will show (opponents' hole cards hidden until they show). The engine posts
the antes (:meth:`StudState.post_antes`), makes each chosen action's event
(:meth:`LegalAction.to_event`), says what is uncalled and who shows first, and
settles the pots: every collection is one of
:func:`~studbook.engine.settle.expected_collections`, the rake coming out of
the pots as the profile's ``rake_from`` says (PokerStars: each pot its share),
so the checker finds the hands clean.

* :func:`simulate_hands` yields :class:`~studbook.events.Hand` objects of one
  table session (or one tournament after another): stacks carry over, busted
  cash players rebuy, tournament levels rise and busted players leave.
* :func:`simulate` yields :class:`SimulatedHand`: the hand plus what the log
  hides (every player's cards) and the exact money result, for oracles.
* :func:`write_hands` turns hands into the text of one PokerStars file
  (``studbook.write.pokerstars.write_hand``); the same seed gives the same bytes.

Showdowns follow PokerStars: the player who must show first shows, then side
pots are settled from the last to the main pot, each pot's new contenders
showing or mucking in turn, winners always showing; hi/lo halves are separate
``collected`` lines, the odd chip goes to the high half (then to the first
winner in dealing order), and cash games pay a rake of 5% (rounded down to the
cent, capped) on hands that reach 4th street, taken from each pot in
proportion to its size (PokerStars' ``rake_from="each_pot"``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import ROUND_FLOOR, Decimal
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from studbook.betting import AGGRESSIVE, after_rake, street_bet
from studbook.cards import DECK, Card
from studbook.engine.pots import Pot, build_pots, high_half
from studbook.engine.profiles import POKERSTARS
from studbook.engine.settle import expected_collections, pot_winners
from studbook.engine.state import LegalAction, LegalActions, PlayerState, StudState
from studbook.evaluate import (
    board_high_key,
    describe_high,
    describe_low,
    high_value,
    low8_value,
    low_a5_value,
)
from studbook.events import (
    Action,
    ActionKind,
    BettingCapped,
    Chatter,
    ChatterKind,
    Collect,
    Deal,
    DealCommunity,
    Event,
    Hand,
    HandHeader,
    Muck,
    NoLowHand,
    OpenPairNotice,
    PostAnte,
    PotSummary,
    Seat,
    SeatSummary,
    Show,
    ShowdownStart,
    Stakes,
    Street,
    StreetStart,
    Structure,
    Tournament,
    UncalledReturned,
    Variant,
)
from studbook.money import Money, format_amount
from studbook.sites.pokerstars import to_utc
from studbook.words import ordinal

ZERO = Decimal(0)
CENT = Decimal("0.01")
_K = ActionKind

GAME_NAMES = {
    Variant.STUD: "7 Card Stud Limit",
    Variant.STUD8: "7 Card Stud Hi/Lo Limit",
    Variant.RAZZ: "Razz Limit",
}
FILE_GAMES = {Variant.STUD: "Stud", Variant.STUD8: "Stud Hi-Lo", Variant.RAZZ: "Razz"}

# Screen names: spaces, brackets, dots, non-ASCII letters, as real tables have.
NAMES: tuple[str, ...] = (
    "Lucky Lou", "grinder_77", "Zoë Bäcker", "[TT] Nils", "Señor Stud", "Ørjan84", "Jean-Luc P.",
    "mr. razzle", "Крот", "北京Ace", "StudMuffin", "Ma Baker", "river_rat", "DoorCard Dan",
    "Łukasz W", "Böse Sieben", "tilted(again)", "queen of clubs", "AceToFive", "Nøkken",
    "Mañana", "big-slick-bob", "ÉlodieR", "{fish}", "Papa Razz", "seven.up", "LowBall Larry",
    "Ямщик", "Fuchs im Bau", "JoJo [NL]", "smokey", "Ćevap", "OldSchool Stud", "dealer's pal",
    "Hi-Lo Harriet", "Ängelholm", "no_qualifier", "Brick City", "Three Ks", "Ólafur",
    "count de monet", "Tamsin", "ƒlush", "gutshot gus", "Moana99", "Wren & Co", "Íñigo",
    "PairOfNines", "wheel_deal", "Kōji",
)

# Tournament levels: small bet, big bet, ante, bring-in (chips).
LEVELS: tuple[tuple[int, int, int, int], ...] = (
    (20, 40, 5, 10), (30, 60, 5, 15), (50, 100, 10, 25), (80, 160, 15, 40), (100, 200, 20, 50),
    (150, 300, 30, 75), (200, 400, 40, 100), (300, 600, 60, 150), (500, 1000, 100, 250),
    (800, 1600, 150, 400), (1000, 2000, 200, 500), (1500, 3000, 300, 750), (2000, 4000, 400, 1000),
    (3000, 6000, 600, 1500), (5000, 10000, 1000, 2500),
)
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV",
         "XV", "XVI", "XVII", "XVIII", "XIX", "XX")

# Cash stakes by small bet: small, big, ante, bring-in.
CASH_STAKES: dict[str, tuple[Decimal, Decimal, Decimal, Decimal]] = {
    "0.04": (Decimal("0.04"), Decimal("0.08"), Decimal("0.01"), Decimal("0.02")),
    "0.5": (Decimal("0.50"), Decimal("1"), Decimal("0.10"), Decimal("0.25")),
    "1": (Decimal("1"), Decimal("2"), Decimal("0.20"), Decimal("0.50")),
    "2": (Decimal("2"), Decimal("4"), Decimal("0.40"), Decimal("1")),
    "5": (Decimal("5"), Decimal("10"), Decimal("1"), Decimal("2")),
    "10": (Decimal("10"), Decimal("20"), Decimal("2"), Decimal("5")),
}


# ---------------------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class TableConfig:
    """One table's game and stakes. Tournament tables leave the blinds to the level."""

    variant: Variant
    small: Decimal = Decimal("2")
    big: Decimal = Decimal("4")
    ante: Decimal = Decimal("0.40")
    bring_in: Decimal = Decimal("1")
    table: str = "Aaltje II"
    rake_percent: Decimal = Decimal("0.05")
    rake_cap: Decimal = Decimal("3")
    tournament: bool = False
    tournament_id: str = ""
    buy_in: str = ""
    hands_per_level: int = 10
    starting_stack: Decimal = Decimal(1500)
    prize: str = ""


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    """A simulated hand with what its log does not show.

    ``cards`` holds every player's own cards in dealing order (down, down, up
    x4, down; six when the community card was dealt); ``net`` is each player's
    collected minus contributed; ``features`` names what happened ("showdown",
    "side_pot", "community", "capped", "all_in", "odd_chip", "double_bet",
    "short_all_in_raise", "partial_bring_in", "optional_bring_in", "no_low_pot", "split", "uncalled",
    "rake").
    """

    hand: Hand
    cards: dict[str, tuple[Card, ...]]
    community: Card | None
    net: dict[str, Money]
    rake: Money
    features: frozenset[str]
    stacks_after: dict[str, Money]


@dataclass(frozen=True, slots=True)
class Decision:
    """What a player strategy sees when a player is to act (see ``simulate(chooser=...)``).

    The simulator knows every card: ``cards`` holds every player's own cards so
    far, and ``strength(name)`` is its rough 0..1 strength of a player's cards;
    an honest strategy reads only its own (a card-sharing one its partner's too).
    """

    player: str
    options: LegalActions
    street: Street
    state: StudState
    cards: Mapping[str, Sequence[Card]]
    strength: Callable[[str], float]
    rng: random.Random


Chooser = Callable[[Decision], "LegalAction | None"]
"""A player strategy: the action to take, or None for the simulator's own choice."""


@dataclass(slots=True)
class _Style:
    loose: float  # how readily they call with little
    aggression: float  # how readily they bet and raise


@dataclass(slots=True)
class _Sitter:
    name: str
    seat: int
    stack: Money
    style: _Style


@dataclass(slots=True)
class _Log:
    """Events of one hand, applied to the engine as they are made, with PokerStars line numbers."""

    state: StudState
    file: str
    line: int
    events: list[Event] = field(default_factory=list)

    def add(self, event_type: type, same_line: bool = False, **fields: object) -> None:
        if not same_line:
            self.line += 1
        self.take(event_type(file=self.file, line=self.line, **fields))

    def take(self, event: Event) -> None:
        """Apply an event made for the next line (or this one) and log it."""
        self.line = event.line
        self.events.append(event)
        self.state.apply(event)

    def record(self, events: Sequence[Event]) -> None:
        """Log events the engine has applied itself (the antes), one a line from the next."""
        self.events.extend(events)
        self.line += len(events)

    def skip_line(self) -> None:
        self.line += 1


# ---------------------------------------------------------------------------- one hand


class _HandPlay:
    """Plays one hand: deal, bet through the engine, settle, summarise."""

    def __init__(self, rng: random.Random, config: TableConfig, stakes: Stakes, sitters: Sequence[_Sitter],
                 hero: str | None, family_pot: bool, file: str, chooser: Chooser | None = None) -> None:
        self.rng = rng
        self.chooser = chooser
        self.config = config
        self.variant = config.variant
        self.stakes = stakes
        self.cash = not config.tournament
        self.chip = CENT if self.cash else Decimal(1)
        self.symbol = "$" if self.cash else ""
        self.styles = {s.name: s.style for s in sitters}
        seats = [(s.seat, s.name, s.stack) for s in sorted(sitters, key=lambda s: s.seat)]
        self.state = StudState.new(self.variant, stakes, seats, POKERSTARS, chip=self.chip)
        self.log = _Log(self.state, file, 2 + len(seats))
        self.hero = hero
        self.family_pot = family_pot
        deck = list(DECK)
        rng.shuffle(deck)
        self.deck = deck
        self.cards: dict[str, list[Card]] = {p.name: [] for p in self.state.order}
        self.community: Card | None = None
        self.features: set[str] = set()
        self._strengths: dict[str, float] = {}

    # -- the deal and the betting ------------------------------------------------------

    def play(self) -> None:
        state, log = self.state, self.log
        log.record(state.post_antes(file=log.file, line=log.line + 1))
        for street in Street:
            if street is not Street.THIRD and state.hand_over:
                break
            log.add(StreetStart, street=street)
            self._deal(street)
            if street is Street.FOURTH and self.variant is not Variant.RAZZ and not state.is_betting_over:
                if any(p.up[0].rank == p.up[1].rank for p in state.live_players):
                    log.add(OpenPairNotice)
            self._bet(street)
            returned = state.uncalled()
            if returned is not None:
                log.add(UncalledReturned, player=returned[0], amount=returned[1])
                self.features.add("uncalled")

    def _deal(self, street: Street) -> None:
        state, log = self.state, self.log
        self._strengths.clear()
        if street is Street.SEVENTH and state.needs_community_card():
            self.community = self.deck.pop()
            self.features.add("community")
            log.add(DealCommunity, same_line=True, card=self.community)
            return
        for name in state.dealing_order():
            own = self.cards[name]
            before = tuple(own)
            hero = name == self.hero
            if street is Street.THIRD:
                new = [self.deck.pop() for _ in range(3)]
                own.extend(new)
                if hero:
                    log.add(Deal, player=name, street=street, down=tuple(new[:2]), up=(new[2],))
                else:
                    log.add(Deal, player=name, street=street, up=(new[2],))
            elif street is Street.SEVENTH:
                card = self.deck.pop()
                own.append(card)
                if hero:
                    log.add(Deal, player=name, street=street, down=(card,), before=before)
            else:
                card = self.deck.pop()
                own.append(card)
                shown_before = before if hero else tuple(before[2:])
                log.add(Deal, player=name, street=street, up=(card,), before=shown_before)

    def _bet(self, street: Street) -> None:
        state, log = self.state, self.log
        cap = POKERSTARS.cap_bets
        while True:
            options = state.legal_actions()
            if options is None:
                return
            choice = self._choose(options, street)
            bets_before = state.bets
            player = state.player(options.player)
            assert player is not None
            log.take(choice.to_event(options.player, file=log.file, line=log.line + 1))
            self._note(choice, options, street, bets_before)
            if choice.kind in AGGRESSIVE and bets_before < cap <= state.bets:
                log.add(BettingCapped)
                self.features.add("capped")

    def _note(self, choice: LegalAction, options: LegalActions, street: Street, bets_before: int) -> None:
        if choice.all_in:
            self.features.add("all_in")
        if _K.BRING_IN in options.kinds() and _K.FOLD in options.kinds():
            self.features.add("optional_bring_in")  # the bring-in player is all-in from the ante
        bring_in = self.stakes.bring_in
        if choice.kind is _K.BRING_IN and bring_in is not None and (choice.amount or ZERO) < bring_in:
            self.features.add("partial_bring_in")
        if choice.kind not in AGGRESSIVE:
            return
        increment = choice.amount if choice.kind is _K.RAISE else choice.to
        assert increment is not None
        if street is Street.FOURTH and increment > self.stakes.small_bet:
            self.features.add("double_bet")
        unit = street_bet(street, self.stakes.small_bet, self.stakes.big_bet)
        if choice.all_in and increment < unit:
            self.features.add("short_all_in_raise")

    # -- the players' choices -----------------------------------------------------------

    def _choose(self, options: LegalActions, street: Street) -> LegalAction:
        if self.chooser is not None:
            decision = Decision(player=options.player, options=options, street=street, state=self.state,
                                cards=self.cards, strength=self._strength, rng=self.rng)
            chosen = self.chooser(decision)
            if chosen is not None:
                return chosen
        rng = self.rng
        style = self.styles[options.player]
        strength = self._strength(options.player)
        aggressive = [a for a in options.actions if a.kind in AGGRESSIVE]
        bring_in = options.find(_K.BRING_IN)
        if bring_in is not None:
            if aggressive and rng.random() < 0.05 + 0.5 * strength ** 2 * style.aggression:
                return aggressive[0]
            fold = options.find(_K.FOLD)  # the bring-in is optional (rule bringin.allin)
            if fold is not None and not self.family_pot and strength < 0.5:
                return fold
            return bring_in
        facing = options.to_call > 0
        chance = style.aggression * ((0.03 + 0.6 * strength ** 3) if facing else (0.12 + 0.75 * strength ** 2))
        if aggressive and rng.random() < chance:
            if len(aggressive) > 1 and rng.random() < 0.5:
                return aggressive[-1]  # the open-pair double bet
            return aggressive[0]
        call = options.find(_K.CALL)
        if call is None:
            check = options.find(_K.CHECK)
            return check if check is not None else options.actions[0]
        fold = options.find(_K.FOLD)
        if fold is None or self.family_pot:
            return call
        required = _REQUIRED[street] - 0.25 * style.loose
        if self.state.bets == 0:
            required -= 0.1  # only the bring-in to call
        if strength + rng.uniform(-0.15, 0.15) < required:
            return fold
        return call

    def _strength(self, name: str) -> float:
        """A rough 0..1 strength of the cards a player holds (never shown to the engine);
        kept until the next deal (a player acts several times a street)."""
        known = self._strengths.get(name)
        if known is None:
            known = self._strengths[name] = self._rate(name)
        return known

    def _rate(self, name: str) -> float:
        own = self._full(name)
        if self.variant is Variant.RAZZ:
            return _low_strength(own)
        key = board_high_key(own)
        category, top = key[0], (key[1] if len(key) > 1 else 2)
        if category == 0:
            high = 0.05 + 0.3 * (top - 2) / 12
        elif category == 1:
            high = 0.55 + 0.25 * (top - 2) / 12
        else:
            high = 0.85 if category == 2 else 0.95
        if len(own) < 7 and max(sum(1 for c in own if c.suit == suit) for suit in "cdhs") >= 3:
            high = min(high + 0.12, 1.0)
        if self.variant is Variant.STUD8:
            return max(high, 0.9 * _low_strength(own))
        return high

    # -- the end of the hand ------------------------------------------------------------

    def settle(self) -> tuple[dict[str, Money], Money, list[Pot], dict[str, tuple[Card, ...]]]:
        state, log = self.state, self.log
        pots = build_pots([(p.name, p.total, p.live) for p in state.order if p.in_hand])
        total = sum((pot.amount for pot in pots), ZERO)
        rake = self._rake(total)
        nets = after_rake([pot.amount for pot in pots], rake, self.chip, state.profile.rake_from)
        collected: dict[str, Money] = {p.name: ZERO for p in state.order}
        shown: dict[str, tuple[Card, ...]] = {}
        mucked: dict[str, tuple[Card, ...]] = {}
        descriptions: dict[str, str] = {}
        if state.hand_over:
            self._collect(rake, len(pots), None, collected)
        else:
            self.features.add("showdown")
            log.add(ShowdownStart)
            self._showdown(pots, nets, rake, collected, shown, mucked, descriptions)
        if len(pots) > 1:
            self.features.add("side_pot")
        if rake:
            self.features.add("rake")
        self._tournament_notes(collected)
        log.skip_line()  # *** SUMMARY ***
        log.add(PotSummary, total=total, rake=rake, pots=tuple(nets) if len(pots) > 1 else ())
        if self.community is not None:
            log.skip_line()  # Board [..]
        self._seat_summaries(collected, shown, mucked, descriptions)
        return collected, rake, pots, shown

    def _collect(self, rake: Money, count: int, index: int | None, collected: dict[str, Money]) -> None:
        """Log what the engine says each player collects from pot ``index`` (every pot when None)."""
        for name, amount, pot in expected_collections(self.state, rake, halves=True):
            if index is None or pot == index:
                self.log.add(Collect, player=name, amount=amount, pot=pot if count > 1 else 0)
                collected[name] += amount

    def _rake(self, total: Money) -> Money:
        if not self.cash or self.state.street is None or self.state.street < Street.FOURTH:
            return ZERO
        rake = (total * self.config.rake_percent).quantize(CENT, rounding=ROUND_FLOOR)
        return min(rake, self.config.rake_cap)

    def _full(self, name: str) -> list[Card]:
        return self.cards[name] + ([self.community] if self.community else [])

    def _winners(self, pot: Pot, net: Money) -> tuple[list[str], bool]:
        """Who wins ``pot`` (``net`` after rake) on the cards the simulator knows, before
        anyone shows (a beaten hand may muck), and whether a low half qualified; notes
        the pot's features. What each collects is the engine's (:meth:`_collect`)."""
        order = list(pot.eligible)
        if len(order) == 1:
            return order, False
        high_winners, low_winners = pot_winners(self.variant, {n: self._full(n) for n in order}, order)
        if low_winners:
            high_part = high_half(net, self.chip)
            if high_part * 2 != net:
                self.features.add("odd_chip")
            self._note_shares(high_part, high_winners)
            self._note_shares(net - high_part, low_winners)
            return high_winners + low_winners, True
        if self.variant is Variant.STUD8:
            self.features.add("no_low_pot")
        self._note_shares(net, high_winners)
        return high_winners, False

    def _note_shares(self, amount: Money, winners: list[str]) -> None:
        if len(winners) > 1:
            self.features.add("split")
            if (amount / self.chip) % len(winners):
                self.features.add("odd_chip")  # the shares differ by a chip

    def _showdown(self, pots: list[Pot], nets: list[Money], rake: Money, collected: dict[str, Money],
                  shown: dict[str, tuple[Card, ...]], mucked: dict[str, tuple[Card, ...]],
                  descriptions: dict[str, str]) -> None:
        state, log = self.state, self.log
        results = [self._winners(pot, net) for pot, net in zip(pots, nets)]
        winners = {n for names, _ in results for n in names}
        order = state.showdown_order()
        decided: set[str] = set()

        def reveal(name: str, must: bool) -> None:
            decided.add(name)
            p = state.player(name)
            assert p is not None
            cards = tuple(self.cards[name])
            description = self._describe(name)
            descriptions[name] = description
            beaten = not must and name not in winners and not p.all_in
            if beaten and self.rng.random() < 0.7:
                mucked[name] = cards
                log.add(Muck, player=name)
            else:
                shown[name] = cards
                log.add(Show, player=name, cards=cards, description=description)

        reveal(order[0], True)
        no_low_noted = False
        for index in range(len(pots) - 1, -1, -1):
            pot = pots[index]
            for name in order:
                if name in pot.eligible and name not in decided:
                    reveal(name, False)
            self._collect(rake, len(pots), index, collected)
            if self.variant is Variant.STUD8 and not results[index][1] and len(pot.eligible) > 1 and not no_low_noted:
                log.add(NoLowHand)
                no_low_noted = True

    def _describe(self, name: str) -> str:
        cards = self._full(name)
        if self.variant is Variant.RAZZ:
            return "Lo: " + describe_low(low_a5_value(cards))
        high = describe_high(high_value(cards))
        if self.variant is Variant.STUD:
            return high
        low = low8_value(cards)
        return f"HI: {high}" + (f"; LO: {describe_low(low)}" if low is not None else "")

    def _tournament_notes(self, collected: dict[str, Money]) -> None:
        if self.cash:
            return
        seated = [p for p in self.state.order if p.in_hand]
        busted = [p for p in seated if p.stack + collected[p.name] == 0]
        place = len(seated)
        for p in sorted(busted, key=lambda q: q.start):
            self.log.add(Chatter, kind=ChatterKind.OTHER, player=p.name,
                         text=f"{p.name} finished the tournament in {ordinal(place)} place")
            place -= 1
        if busted and place == 1:
            winner = next(p.name for p in seated if p not in busted)
            self.log.add(Chatter, kind=ChatterKind.OTHER, player=winner,
                         text=f"{winner} wins the tournament and receives {self.config.prize} - congratulations!")

    def _seat_summaries(self, collected: dict[str, Money], shown: dict[str, tuple[Card, ...]],
                        mucked: dict[str, tuple[Card, ...]], descriptions: dict[str, str]) -> None:
        for p in self.state.players:
            outcome, cards, won = self._outcome(p, collected, shown, mucked, descriptions)
            self.log.add(SeatSummary, seat=p.seat, player=p.name, outcome=outcome, cards=cards, won=won)

    def _outcome(self, p: PlayerState, collected: dict[str, Money], shown: dict[str, tuple[Card, ...]],
                 mucked: dict[str, tuple[Card, ...]], descriptions: dict[str, str],
                 ) -> tuple[str, tuple[Card, ...], Money | None]:
        won = collected[p.name]
        money = format_amount(won, self.symbol)
        if p.folded:
            street = p.last_street
            where = "the River" if street is Street.SEVENTH else f"the {street.label} Street"
            quiet = " (didn't bet)" if street is Street.THIRD and p.total == p.ante else ""
            return f"folded on {where}{quiet}", (), None
        if p.name in shown:
            cards = shown[p.name]
            text = " ".join(str(c) for c in cards)
            if won > 0:
                return f"showed [{text}] and won ({money}) with {descriptions[p.name]}", cards, won
            return f"showed [{text}] and lost with {descriptions[p.name]}", cards, None
        if p.name in mucked:
            cards = mucked[p.name]
            return f"mucked [{' '.join(str(c) for c in cards)}]", cards, None
        return f"collected ({money})", (), won


def _low_strength(cards: Sequence[Card]) -> float:
    """Low potential: distinct ranks eight or lower among the best five, the lower the better."""
    need = min(len(cards), 5)
    ranks = sorted({c.low_rank for c in cards if c.low_rank <= 8})[:need]
    if not ranks:
        return 0.0
    return (len(ranks) / need) ** 2 * (1.0 - 0.05 * max(0, ranks[-1] - 5))


_REQUIRED = {Street.THIRD: 0.62, Street.FOURTH: 0.6, Street.FIFTH: 0.6, Street.SIXTH: 0.52, Street.SEVENTH: 0.62}


# ---------------------------------------------------------------------------- sessions


class _Table:
    """A table session: seats, stacks, hand numbers and the clock."""

    def __init__(self, rng: random.Random, config: TableConfig, players: int, hero: str | None,
                 names: Sequence[str], hand_id: int, clock: datetime, file: str,
                 chooser: Chooser | None = None) -> None:
        if not 2 <= players <= 8:
            raise ValueError(f"stud needs 2 to 8 players, not {players}")
        self.rng = rng
        self.config = config
        self.hero = hero
        self.pool = [n for n in names if n != hero]
        rng.shuffle(self.pool)
        self.hand_id = hand_id
        self.clock = clock
        self.file = file
        self.chooser = chooser
        self.played = 0
        self.level = 0
        seats = sorted(rng.sample(range(1, 9), players))
        hero_at = rng.randrange(players) if hero is not None else -1
        self.sitters = [self._new_sitter(seat, hero if i == hero_at else None) for i, seat in enumerate(seats)]

    def _new_sitter(self, seat: int, name: str | None = None) -> _Sitter:
        if name is None:
            name = self.pool.pop(0) if self.pool else f"player{self.rng.randrange(10**6)}"
        style = _Style(loose=self.rng.random(), aggression=0.2 + 0.8 * self.rng.random())
        return _Sitter(name, seat, self._buy_in(), style)

    def _buy_in(self) -> Decimal:
        config = self.config
        if config.tournament:
            return config.starting_stack
        bets = self.rng.choice((6, 10, 15, 25, 40, 50, 50, 60, 80, 100))
        cents = int(config.big * bets * 100) + self.rng.randrange(0, int(config.big * 100) + 1)
        return (Decimal(cents) / 100).quantize(CENT)

    def stakes(self) -> Stakes:
        config = self.config
        if not config.tournament:
            return Stakes(config.small, config.big, config.ante, config.bring_in)
        small, big, ante, bring_in = LEVELS[min(self.level, len(LEVELS) - 1)]
        return Stakes(Decimal(small), Decimal(big), Decimal(ante), Decimal(bring_in))

    def header(self, stakes: Stakes) -> HandHeader:
        config = self.config
        started = self.clock.strftime("%Y/%m/%d %H:%M:%S")
        tournament = None
        if config.tournament:
            tournament = Tournament(id=config.tournament_id, buy_in=config.buy_in, level=ROMAN[min(self.level, len(ROMAN) - 1)])
        return HandHeader(
            site="pokerstars", hand_id=str(self.hand_id), variant=config.variant, structure=Structure.FIXED,
            game=GAME_NAMES[config.variant], stakes=Stakes(stakes.small_bet, stakes.big_bet),
            currency=None if config.tournament else "USD", play_money=False, tournament=tournament,
            table=config.table, max_seats=8, started=f"{started} ET", started_utc=to_utc(started, "ET"),
        )

    def play(self) -> SimulatedHand:
        rng = self.rng
        stakes = self.stakes()
        header = self.header(stakes)
        family = len(self.sitters) >= 7 and rng.random() < 0.04
        play = _HandPlay(rng, self.config, stakes, self.sitters, self.hero, family, self.file, self.chooser)
        play.play()
        collected, rake, _pots, _shown = play.settle()
        state = play.state
        seats = tuple(Seat(file=self.file, line=3 + i, seat=s.seat, player=s.name, stack=s.stack)
                      for i, s in enumerate(sorted(self.sitters, key=lambda s: s.seat)))
        hand = Hand(self.file, 1, play.log.line, header, seats, tuple(play.log.events))
        net = {p.name: collected[p.name] - p.total for p in state.order}
        after = {p.name: p.stack + collected[p.name] for p in state.order}
        result = SimulatedHand(
            hand=hand, cards={n: tuple(c) for n, c in play.cards.items()}, community=play.community,
            net=net, rake=rake, features=frozenset(play.features), stacks_after=after,
        )
        self._after_hand(after)
        return result

    def _after_hand(self, after: dict[str, Money]) -> None:
        rng = self.rng
        self.played += 1
        self.hand_id += rng.randrange(1, 40)
        self.clock += timedelta(seconds=rng.randrange(25, 140))
        for s in self.sitters:
            s.stack = after[s.name]
        if self.config.tournament:
            self.sitters = [s for s in self.sitters if s.stack > 0]
            self.level = self.played // self.config.hands_per_level
            return
        for i, s in enumerate(self.sitters):
            if s.stack == 0 or (s.stack < self.config.big * 3 and rng.random() < 0.3):
                s.stack = max(s.stack, self._buy_in())  # rebuy or top up
            elif s.name != self.hero and rng.random() < 0.01:
                self.pool.append(s.name)  # leaves; a new player takes the seat
                self.sitters[i] = self._new_sitter(s.seat)

    @property
    def finished(self) -> bool:
        return len(self.sitters) < 2


# Each variant draws its hand ids from its own range, 100 billion apart, so hands
# simulated with one seed in two variants never share an id (they would collide
# in a store, which keys hands by site and id). A table's ids grow by at most
# 40 a hand and 90,000 a table, far from the next range even at millions of hands.
_FIRST_HAND_ID = {Variant.STUD: 250_000_000_000, Variant.STUD8: 350_000_000_000, Variant.RAZZ: 450_000_000_000}


def simulate(
    variant: Variant | str,
    hands: int,
    players: int,
    seed: int,
    tournament: bool = False,
    *,
    stakes: str = "2",
    table: str | None = None,
    hero: str | None = None,
    names: Sequence[str] = NAMES,
    start: datetime | None = None,
    first_hand_id: int | None = None,
    file: str = "",
    hands_per_level: int = 10,
    chooser: Chooser | None = None,
) -> Iterator[SimulatedHand]:
    """``hands`` hands of one table (tournaments: one after another until ``hands``).

    ``stakes`` names a cash stake by its small bet (see :data:`CASH_STAKES`);
    ``hero`` is the player whose hole cards the log shows (default: the first
    player seated); ``chooser`` decides for the players where it returns an
    action (:class:`Decision`; :mod:`studbook.strategies` has some).
    """
    variant = Variant(variant)
    rng = random.Random(seed)
    clock = start or datetime(2024, 3, 1, 12, 0, 0) + timedelta(seconds=rng.randrange(0, 60 * 86400))
    hand_id = first_hand_id or _FIRST_HAND_ID[variant] + rng.randrange(10**10)
    made = 0
    while made < hands:
        config = _config(rng, variant, tournament, stakes, table, hands_per_level, players)
        session = _Table(rng, config, players, hero, names, hand_id, clock, file, chooser)
        if hero is None:
            session.hero = session.sitters[0].name
        while made < hands and not session.finished:
            yield session.play()
            made += 1
        hand_id, clock = session.hand_id + rng.randrange(1000, 90000), session.clock + timedelta(minutes=rng.randrange(5, 90))


def _config(rng: random.Random, variant: Variant, tournament: bool, stakes: str, table: str | None,
            hands_per_level: int, players: int) -> TableConfig:
    if tournament:
        tid = str(3_700_000_000 + rng.randrange(10**8))
        buy_in, fee = rng.choice(((Decimal(10), Decimal(1)), (Decimal("3.30"), Decimal("0.30")),
                                  (Decimal("0.98"), Decimal("0.12"))))
        return TableConfig(variant=variant, table=table or f"{tid} 1", tournament=True, tournament_id=tid,
                           buy_in=f"{format_amount(buy_in, '$')}+{format_amount(fee, '$')} USD",
                           prize=format_amount(buy_in * players, "$"),
                           hands_per_level=hands_per_level, rake_percent=ZERO)
    try:
        small, big, ante, bring_in = CASH_STAKES[stakes]
    except KeyError:
        raise ValueError(f"unknown stakes {stakes!r}; known: {', '.join(CASH_STAKES)}") from None
    name = table or rng.choice(("Aaltje", "Brunhilde", "Cassiopeia", "Dorado", "Eunike", "Fidelitas",
                                "Gaudeamus", "Hydra", "Io")) + " " + rng.choice(ROMAN[:12])
    return TableConfig(variant=variant, small=small, big=big, ante=ante, bring_in=bring_in, table=name)


def simulate_hands(
    variant: Variant | str, hands: int, players: int, seed: int, tournament: bool = False, **options: Any,
) -> Iterator[Hand]:
    """The hands of :func:`simulate` (same arguments: ``options`` are its keywords, checked there)."""
    for simulated in simulate(variant, hands, players, seed, tournament, **options):
        yield simulated.hand


def write_hands(hands: Iterable[Hand]) -> str:
    """The text of one PokerStars file holding ``hands``."""
    from studbook.write.pokerstars import write_hands as write  # the writer stage comes after this one

    return write(hands)


def file_name(hand: Hand) -> str:
    """A PokerStars-style file name for the session a hand belongs to."""
    header = hand.header
    day = header.started[:10].replace("/", "")
    game = FILE_GAMES[header.variant]
    if header.tournament is not None:
        buy_in = (header.tournament.buy_in or "").replace(" USD", "").replace("+", " + ")
        return f"HH{day} T{header.tournament.id} Limit {game} {buy_in}.txt"
    stakes = header.stakes
    ante = next((e.amount for e in hand.events if isinstance(e, PostAnte)), None)
    ante_text = f" Ante {format_amount(ante, '$')}" if ante is not None else ""
    return (f"HH{day} {header.table} - {format_amount(stakes.small_bet, '$')}-"
            f"{format_amount(stakes.big_bet, '$')}{ante_text} - USD Limit {game}.txt")


__all__ = ["NAMES", "Chooser", "Decision", "SimulatedHand", "TableConfig", "file_name", "simulate", "simulate_hands", "write_hands"]
