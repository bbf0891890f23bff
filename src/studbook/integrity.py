"""Integrity analytics: player and pair facts, collusion scores, violations in context.

:func:`analyse` turns frames (``hands``, ``players``, ``actions``; ``violations``
for the context) into an :class:`Integrity` of DataFrames:

Players are keyed by (site, player): the same name at two sites is two
players, and a pair is two players of one site.

* ``pairs``: one row per pair (``site``, ``a``, ``b``) of players who shared hands: hands together,
  pots contested heads-up and multi-way, showdowns together, chips won from
  each other, the heads-up decisions of each against the other and how many
  were bets or raises (soft play), folds to a bet and folds of a stronger
  visible board (chip dumping), large pots lost to the other; then the three
  tests below, their p-values, the pair's score and whether it is flagged,
  and the hands that support it.
* ``players``: hands, net won in big bets per 100 hands with a 95% confidence
  interval, heads-up decisions and their aggression rate, and their
  showdowns against what the cards shown predict (:func:`showdown_facts`).
* ``decisions``: every heads-up decision (exactly two players live), the
  rows the tests count.
* ``violations`` in context: ``by_rule``, ``by_table``, ``by_hour`` and
  ``bursts`` (many faults at one table in a short time).

The tests (``docs/integrity.md`` has their assumptions):

* **soft play** (``soft_p``): the Cochran-Mantel-Haenszel test, one-sided,
  that the pair bets or raises less heads-up against each other than each does
  heads-up against everyone else at the same table, and less than the others
  there bet or raise into each (both must hold); strata: player x table x
  facing a bet or not, so each player's style in that session and whether a
  bet was there to raise are held fixed.
* **chip dumping** (``dump_p``): the same test that one player folds to a bet
  heads-up against the other more often than they fold to others' bets at
  the same table, and more often than the others there fold to the other's
  bets, on the big-bet streets (5th to 7th); strata: player x table x street; the smaller p of the two
  directions, doubled (Bonferroni).

* **card sharing** (``share_p``): the same test that one player folds to a
  bet, three or more live, more often while the other is live (and did not
  make the bet) than in the same spots without them, and more often than the
  others fold while the other is live (:func:`share_tests`).

``pair_p`` is the smallest of the three, tripled, times the number of pairs
tested (Bonferroni over every pair); ``score`` is ``-log10(pair_p)``, so a
score of 2 means "one chance in a hundred that any honest pair of this many
would look as extreme", and ``flagged`` is ``pair_p < alpha`` (0.05).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Iterator

import numpy as np
import pandas as pd

from studbook.betting import AGGRESSIVE_NAMES
from studbook.cards import parse_cards
from studbook.evaluate import board_high_key
from studbook.evaluate.board import board_low_key
from studbook.evaluate.scalar import high_value, low8_value, low_a5_value
from studbook.frames import Frames

ALPHA = 0.05
"""The family-wise error rate of a flag: the chance that honest play flags any pair."""
MIN_DECISIONS = 10
"""Heads-up decisions against each other a pair needs before it is tested."""
LARGE_POT_BB = 5.0
"""Chips lost to one opponent in one hand, in big bets, that make a large pot lost."""
BURST_MINUTES = 30
BURST_FAULTS = 5
"""A burst: at least this many violations at one table within BURST_MINUTES."""
SUPPORT = 10
"""Hand ids listed as a pair's evidence."""
BIG_BET_STREET = 5
"""Chip dumping is tested on folds from this street on: where the big bets are
lost (a dumper who calls on 3rd and 4th to build the pot looks no different
there, and folds on 3rd and 4th lose little)."""

_KEY = ["site", "hand_id"]
_PAIR = ["site", "a", "b"]
"""A pair: two players of one site (a player is a site and a name)."""


@dataclass(frozen=True)
class Integrity:
    """The report's frames; see the module's docstring."""

    pairs: pd.DataFrame
    players: pd.DataFrame
    decisions: pd.DataFrame
    by_rule: pd.DataFrame
    by_table: pd.DataFrame
    by_hour: pd.DataFrame
    bursts: pd.DataFrame
    hands: int

    def tables(self) -> Iterator[tuple[str, pd.DataFrame]]:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, pd.DataFrame):
                yield f.name, value

    @property
    def flagged(self) -> pd.DataFrame:
        return self.pairs[self.pairs["flagged"]]


def analyse(frames: Frames, *, alpha: float = ALPHA, min_decisions: int = MIN_DECISIONS,
            burst_minutes: int = BURST_MINUTES, burst_faults: int = BURST_FAULTS) -> Integrity:
    """The integrity report of ``frames``."""
    hands, players, actions = frames.hands, frames.players, frames.actions
    decisions = heads_up_decisions(hands, players, actions)
    pairs = pair_facts(hands, players, decisions)
    pairs = score_pairs(pairs, decisions, multiway_decisions(hands, players, actions), alpha=alpha,
                        min_decisions=min_decisions)
    violations = _violations_in_time(hands, frames.violations)
    return Integrity(
        pairs=pairs, players=player_facts(hands, players, decisions, frames.pots), decisions=decisions,
        by_rule=_count(violations, ["site", "rule"]), by_table=_count(violations, ["site", "table"]),
        by_hour=_by_hour(violations), bursts=bursts(violations, minutes=burst_minutes, faults=burst_faults),
        hands=len(hands),
    )


# ---------------------------------------------------------------------------- heads-up decisions


def heads_up_decisions(hands: pd.DataFrame, players: pd.DataFrame, actions: pd.DataFrame) -> pd.DataFrame:
    """Every action taken with exactly two players live (the bring-in aside): the
    actor, the opponent, the street, whether it faced a bet, was aggressive (bet,
    raise, complete) or a fold, and whether the actor's up cards then beat the
    opponent's (razz: were lower), with the pot before it in big bets."""
    columns = ["site", "hand_id", "table", "seq", "street", "player", "opponent", "facing_bet", "aggressive",
               "fold", "stronger_board", "pot_before_bb"]
    if actions.empty:
        return pd.DataFrame(columns=columns)
    a = actions[["site", "hand_id", "seq", "street", "player", "kind", "facing_bet", "pot_before"]].copy()
    for col in ("site", "hand_id", "player", "kind"):
        a[col] = a[col].astype(str)
    a = _with_live(a, players)
    a = a[(a["live"] == 2) & a["kind"].ne("bring_in")]
    if a.empty:
        return pd.DataFrame(columns=columns)
    last_two = _last_two(players, actions)
    a = a.merge(last_two, on=_KEY, how="inner")
    a = a[(a["player"] == a["first"]) | (a["player"] == a["second"])]
    a["opponent"] = np.where(a["player"] == a["first"], a["second"], a["first"])
    a["aggressive"] = a["kind"].isin(AGGRESSIVE_NAMES)
    a["fold"] = a["kind"].eq("fold")
    a["facing_bet"] = a["facing_bet"].astype(bool)
    info = _hand_info(hands)
    a = a.merge(info, on=_KEY, how="left")
    a["pot_before_bb"] = a["pot_before"].astype(float) / a["big_bet"].astype(float)
    a["stronger_board"] = _stronger_boards(a, players)
    return a[columns].reset_index(drop=True)


def _with_live(a: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """``a`` (actions, names as str) sorted by hand and seq, with ``live``: the
    players live when each acts (dealt in, less the folds before it)."""
    a = a.sort_values(_KEY + ["seq"], kind="stable")
    fold = a["kind"].eq("fold")
    key = a.groupby(_KEY, sort=False).ngroup()
    folds_before = fold.groupby(key).cumsum() - fold.astype(int)
    dealt = _players(players).groupby(_KEY).size().rename("dealt").reset_index()
    a = a.merge(dealt, on=_KEY, how="left")
    a["live"] = a["dealt"] - folds_before.to_numpy()
    return a


def multiway_decisions(hands: pd.DataFrame, players: pd.DataFrame, actions: pd.DataFrame) -> pd.DataFrame:
    """Every decision facing a bet with three or more players live: one row per
    other player live then (``other``), with the actor, street, table, players
    live, whether the actor folded, and whether ``other`` made the bet faced
    (the last bet, raise, completion or bring-in before it)."""
    columns = ["site", "hand_id", "table", "seq", "street", "live", "player", "other", "fold", "other_bet"]
    if actions.empty:
        return pd.DataFrame(columns=columns)
    a = actions[["site", "hand_id", "seq", "street", "player", "kind", "facing_bet"]].copy()
    for col in ("site", "hand_id", "player", "kind"):
        a[col] = a[col].astype(str)
    a = _with_live(a, players)
    bettor = a["player"].where(a["kind"].isin((*AGGRESSIVE_NAMES, "bring_in")))
    key = a.groupby(_KEY, sort=False).ngroup()
    a["bettor"] = bettor.groupby(key).ffill().groupby(key).shift(1)
    a = a[(a["live"] >= 3) & a["facing_bet"].astype(bool) & a["kind"].ne("bring_in")]
    others = _fold_seq(players, actions).rename(columns={"player": "other", "seq": "other_fold"})
    a = a.merge(others, on=_KEY, how="inner")
    a = a[(a["other"] != a["player"]) & (a["other_fold"] > a["seq"])]
    a = a.merge(_hand_info(hands)[_KEY + ["table"]], on=_KEY, how="left")
    a["fold"] = a["kind"].eq("fold")
    a["other_bet"] = a["other"].eq(a["bettor"])
    a["live"] = a["live"].clip(upper=5)
    return a[columns].reset_index(drop=True)


def _players(players: pd.DataFrame) -> pd.DataFrame:
    p = players[["site", "hand_id", "player"]].copy()
    for col in p.columns:
        p[col] = p[col].astype(str)
    return p


def _hand_info(hands: pd.DataFrame) -> pd.DataFrame:
    info = hands[["site", "hand_id", "variant", "big_bet", "table"]].copy()
    for col in ("site", "hand_id", "variant", "table"):
        info[col] = info[col].astype(str)
    return info


def _fold_seq(players: pd.DataFrame, actions: pd.DataFrame) -> pd.DataFrame:
    """Every player dealt in, with the ``seq`` of their fold (infinite if none):
    a player is live at every action up to and including that one."""
    p = _players(players)
    folds = actions[actions["kind"].astype(str) == "fold"][["site", "hand_id", "player", "seq"]].copy()
    for col in ("site", "hand_id", "player"):
        folds[col] = folds[col].astype(str)
    p = p.merge(folds, on=_KEY + ["player"], how="left")
    p["seq"] = p["seq"].astype(float).fillna(np.inf)
    return p


def _last_two(players: pd.DataFrame, actions: pd.DataFrame) -> pd.DataFrame:
    """Per hand, the two players who stayed live longest: once two are live, the
    next fold ends the hand, so these are the two live at every heads-up action."""
    p = _fold_seq(players, actions)
    p = p.sort_values(_KEY + ["seq", "player"], ascending=[True, True, False, True], kind="stable")
    top = p.groupby(_KEY, sort=False).head(2)
    top = top.assign(rank=top.groupby(_KEY, sort=False).cumcount())
    wide = top.pivot(index=_KEY, columns="rank", values="player").reset_index()
    if 1 not in wide.columns:
        return pd.DataFrame(columns=_KEY + ["first", "second"])
    return wide.rename(columns={0: "first", 1: "second"})[_KEY + ["first", "second"]].dropna()


def _stronger_boards(a: pd.DataFrame, players: pd.DataFrame) -> pd.Series:
    """Whether the actor's up cards at the decision's street beat the opponent's."""
    boards = _players(players)
    boards["up"] = players["up_cards"].astype(str).to_numpy()
    up = {(s, h, p): u for s, h, p, u in boards[["site", "hand_id", "player", "up"]].itertuples(index=False)}
    out = []
    for site, hand, street, actor, opponent, variant in a[["site", "hand_id", "street", "player", "opponent",
                                                           "variant"]].itertuples(index=False):
        shown = min(int(street) - 2, 4)
        mine = _board(up.get((site, hand, actor), ""), shown)
        theirs = _board(up.get((site, hand, opponent), ""), shown)
        if not mine or len(mine) != len(theirs):
            out.append(False)
        elif variant == "razz":
            out.append(board_low_key(mine) < board_low_key(theirs))
        else:
            out.append(board_high_key(mine) > board_high_key(theirs))
    return pd.Series(out, index=a.index, dtype=bool)


def _board(text: str, shown: int) -> list:
    if not text or text == "<NA>":
        return []
    return list(parse_cards(text))[:shown]


# ---------------------------------------------------------------------------- pair facts


def pair_facts(hands: pd.DataFrame, players: pd.DataFrame, decisions: pd.DataFrame) -> pd.DataFrame:
    """One row per pair (``a`` < ``b``) of players dealt into the same hands; see the module docstring."""
    p = _players(players)
    p["showdown"] = players["showdown"].astype(bool).to_numpy()
    p["last_street"] = players["last_street"].astype(int).to_numpy()
    p["net"] = players["net"].astype(float).to_numpy()
    p["collected"] = players["collected"].astype(float).to_numpy()
    info = _hand_info(hands)
    p = p.merge(info[_KEY + ["big_bet"]], on=_KEY, how="left")
    reached = p[p["last_street"] >= 4].groupby(_KEY).size().rename("reached_4th").reset_index()
    p = p.merge(reached, on=_KEY, how="left").fillna({"reached_4th": 0})
    won = p.groupby(_KEY)["collected"].sum().rename("total_collected").reset_index()
    p = p.merge(won, on=_KEY, how="left")
    both = p.merge(p, on=_KEY + ["big_bet", "reached_4th", "total_collected"], suffixes=("_a", "_b"))
    both = both[both["player_a"] < both["player_b"]]
    share_a = np.where(both["total_collected"] > 0, both["collected_a"] / both["total_collected"].where(
        both["total_collected"] > 0, 1), 0.0)
    share_b = np.where(both["total_collected"] > 0, both["collected_b"] / both["total_collected"].where(
        both["total_collected"] > 0, 1), 0.0)
    bb = both["big_bet"].astype(float)
    # what b lost that a collected, pro rata to what each winner took
    both["a_from_b_bb"] = np.clip(-both["net_b"], 0, None) * share_a / bb
    both["b_from_a_bb"] = np.clip(-both["net_a"], 0, None) * share_b / bb
    both["showdown_together"] = both["showdown_a"] & both["showdown_b"]
    both["multiway"] = (both["last_street_a"] >= 4) & (both["last_street_b"] >= 4) & (both["reached_4th"] >= 3)
    both["a_large_from_b"] = both["a_from_b_bb"] >= LARGE_POT_BB
    both["b_large_from_a"] = both["b_from_a_bb"] >= LARGE_POT_BB
    g = both.rename(columns={"player_a": "a", "player_b": "b"}).groupby(_PAIR)
    facts = pd.DataFrame({
        "hands": g.size(),
        "multiway": g["multiway"].sum(),
        "showdowns": g["showdown_together"].sum(),
        "a_won_from_b_bb": g["a_from_b_bb"].sum().round(2),
        "b_won_from_a_bb": g["b_from_a_bb"].sum().round(2),
        "a_large_pots_from_b": g["a_large_from_b"].sum(),
        "b_large_pots_from_a": g["b_large_from_a"].sum(),
    }).reset_index()
    return facts.merge(_heads_up_facts(decisions), on=_PAIR, how="left").fillna(
        {c: 0 for c in _HU_COLUMNS}).astype({c: int for c in _HU_COLUMNS})


_HU_COLUMNS = ["heads_up", "a_decisions", "a_aggressive", "b_decisions", "b_aggressive",
               "a_facing", "a_folds", "b_facing", "b_folds", "a_folds_stronger", "b_folds_stronger"]


def _heads_up_facts(decisions: pd.DataFrame) -> pd.DataFrame:
    """Per pair: hands contested heads-up, and each one's decisions against the other."""
    d = decisions.copy()
    if d.empty:
        return pd.DataFrame(columns=[*_PAIR, *_HU_COLUMNS])
    d["a"] = np.minimum(d["player"], d["opponent"])
    d["b"] = np.maximum(d["player"], d["opponent"])
    d["facing_fold"] = d["facing_bet"] & d["fold"]
    d["stronger_fold"] = d["fold"] & d["stronger_board"]
    per = d.groupby([*_PAIR, "player"]).agg(
        decisions=("aggressive", "size"), aggressive=("aggressive", "sum"), facing=("facing_bet", "sum"),
        folds=("facing_fold", "sum"), folds_stronger=("stronger_fold", "sum")).reset_index()
    out = d.groupby(_PAIR)["hand_id"].nunique().rename("heads_up").reset_index()
    for side in ("a", "b"):
        mine = per[per["player"] == per[side]].drop(columns="player")
        mine = mine.rename(columns={c: f"{side}_{c}" for c in ("decisions", "aggressive", "facing", "folds",
                                                                  "folds_stronger")})
        out = out.merge(mine, on=_PAIR, how="left")
    return out.fillna(0)


# ---------------------------------------------------------------------------- the tests


def cmh_z(strata: pd.DataFrame) -> tuple[float, int]:
    """The Cochran-Mantel-Haenszel statistic (no continuity correction) of
    strata with columns ``x`` (events with the partner), ``n`` (decisions with
    the partner), ``y`` (events with others) and ``m`` (decisions with others):
    (observed - expected) / sd of the events with the partner, and how many
    decisions with the partner it rests on. 0 when no stratum tells."""
    terms = _cmh_terms(strata).sum()
    if terms["var"] <= 0:
        return 0.0, int(terms["n"])
    return float((terms["obs"] - terms["exp"]) / math.sqrt(terms["var"])), int(terms["n"])


def _normal_upper(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def _cmh_terms(rows: pd.DataFrame) -> pd.DataFrame:
    """Each stratum's observed, expected and variance of the events with the partner
    (columns ``x``, ``n`` with the partner; ``y``, ``m`` with the others)."""
    t = (rows["n"] + rows["m"]).astype(float)
    e = (rows["x"] + rows["y"]).astype(float)
    ok = (rows["n"] > 0) & (rows["m"] > 0) & (t > 1)
    safe_t = t.where(ok, 2.0)
    return pd.DataFrame({
        "obs": rows["x"].where(ok, 0).astype(float),
        "exp": (rows["n"] * e / safe_t).where(ok, 0.0),
        "var": (rows["n"] * rows["m"] * e * (t - e) / (safe_t * safe_t * (safe_t - 1))).where(ok, 0.0),
        "n": rows["n"].where(ok, 0),
    }, index=rows.index)


def _side_z(counts: pd.DataFrame, side: str, by: list[str], keys: list[str]) -> pd.DataFrame:
    """The CMH z of every group of ``keys``: each (player, opponent, ``by``) row's
    events against that opponent beside the baseline of its ``side`` (the
    acting player's events against everyone else, or everyone else's against
    the same opponent), the rows of excluded pairs left out of the baselines."""
    kept = counts[~counts["excluded"]]
    totals = kept.groupby([side, *by])[["x", "n"]].sum().rename(columns={"x": "tx", "n": "tn"})
    rows = counts.join(totals, on=[side, *by])
    own = (~rows["excluded"]).astype(int)
    rows["y"] = rows["tx"].fillna(0) - rows["x"] * own
    rows["m"] = rows["tn"].fillna(0) - rows["n"] * own
    return _grouped_z(rows, keys)


def _grouped_z(rows: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The CMH z (and decisions with the partner) of each group of ``keys``,
    summing the strata rows (columns ``x``, ``n``, ``y``, ``m``) of the group."""
    terms = _cmh_terms(rows).join(rows[keys])
    g = terms.groupby(keys)[["obs", "exp", "var", "n"]].sum()
    z = (g["obs"] - g["exp"]) / np.sqrt(g["var"].where(g["var"] > 0))
    return pd.DataFrame({"z": z.fillna(0.0), "n": g["n"].astype(int)})


_SHARE_STRATA = ["site", "table", "street", "live"]


def share_tests(multiway: pd.DataFrame) -> pd.DataFrame:
    """Card sharing, per pair (``site``, ``a``, ``b``): the CMH z that one folds
    to a bet more often while the other is live (and did not make the bet)
    than in the same spots without the other live, and more often than the
    others fold while the other is live; strata: site x table x street x
    players live (3, 4, 5 or more). Each direction must hold against both
    baselines (the less extreme z kept); the more extreme direction is kept,
    with ``folder`` its actor and ``share_n`` its decisions with the partner live."""
    if multiway.empty:
        return pd.DataFrame(columns=["share_z", "share_n", "folder"], index=pd.MultiIndex.from_tuples([], names=_PAIR))
    strata, directed = _SHARE_STRATA, ["player", "other", *_SHARE_STRATA]
    totals = multiway.drop_duplicates(_KEY + ["seq"]).groupby(["player", *strata])["fold"].agg(tx="sum", tn="size")
    live = multiway.groupby(directed)["fold"].agg(lx="sum", ln="size")
    not_bet = multiway[~multiway["other_bet"]]
    others = not_bet.groupby(["other", *strata])["fold"].agg(sx="sum", sn="size")
    rows = not_bet.groupby(directed)["fold"].agg(x="sum", n="size").reset_index()
    rows = rows.join(live, on=directed).join(totals, on=["player", *strata]).join(others, on=["other", *strata])
    keys = ["site", "player", "other"]
    # the actor's folds in the same spots without the other live; everyone else's folds with the other live
    by_actor = _grouped_z(rows.assign(y=rows["tx"] - rows["lx"], m=rows["tn"] - rows["ln"]), keys)
    by_target = _grouped_z(rows.assign(y=rows["sx"] - rows["x"], m=rows["sn"] - rows["n"]), keys)
    z = pd.DataFrame({"share_z": np.minimum(by_actor["z"], by_target["z"]), "share_n": by_actor["n"]}).reset_index()
    z["a"] = np.minimum(z["player"], z["other"])
    z["b"] = np.maximum(z["player"], z["other"])
    best = z.sort_values("share_z", ascending=False, kind="stable").drop_duplicates(_PAIR)
    return best.set_index(_PAIR).rename(columns={"player": "folder"})[["share_z", "share_n", "folder"]]


def _counts(decisions: pd.DataFrame, event: str, by: list[str], excluded: set[tuple[str, str, str]]) -> pd.DataFrame:
    """``by`` starts with ``site``: a player is a site and a name."""
    counts = decisions.groupby(["player", "opponent", *by])[event].agg(x="sum", n="size").reset_index()
    counts = counts[counts["n"] > 0]
    counts["a"] = np.minimum(counts["player"], counts["opponent"])
    counts["b"] = np.maximum(counts["player"], counts["opponent"])
    counts["excluded"] = [(s, a, b) in excluded for s, a, b in zip(counts["site"], counts["a"], counts["b"])]
    return counts


def null_scale(z: pd.Series) -> float:
    """The empirical null's spread of z-scores (Efron): 1.4826 x their median
    absolute deviation, at least 1, and 1 for fewer than :data:`NULL_PAIRS`
    values. Decisions of one hand are not independent, so honest pairs' z
    spread wider than N(0, 1); most pairs being honest, the median deviation
    measures that spread, whatever a few cheating pairs do."""
    z = z.dropna()
    if len(z) < NULL_PAIRS:
        return 1.0
    return max(1.0, 1.4826 * float((z - z.median()).abs().median()))


NULL_PAIRS = 20
"""Tested pairs needed before their spread rescales the z-scores."""


def _tests(decisions: pd.DataFrame, excluded: set[tuple[str, str, str]], min_decisions: int) -> pd.DataFrame:
    """Per pair (``site``, ``a``, ``b``): soft play's z (divided by its :func:`null_scale`)
    and chip dumping's, their sample sizes and the dumper. Only soft play's is
    rescaled: a hand holds many checks and calls of the same two players, but
    at most one fold facing a bet (it ends the hand).

    Each test must hold against both baselines (an intersection-union test: the
    less extreme z is kept), so neither the actor's own style nor the
    opponent's (how others play against them) can make a pair look unusual.
    """
    by = ["site", "table", "facing_bet"]
    soft = _counts(decisions, "aggressive", by, excluded)
    by_actor, by_target = _side_z(soft, "player", by, _PAIR), _side_z(soft, "opponent", by, _PAIR)
    out = pd.DataFrame({"soft_z": np.maximum(by_actor["z"], by_target["z"]), "soft_n": by_actor["n"]})
    out["soft_scale"] = null_scale(out.loc[out["soft_n"] >= min_decisions, "soft_z"])
    out["soft_z"] /= out["soft_scale"]
    facing = decisions[decisions["facing_bet"] & (decisions["street"] >= BIG_BET_STREET)]
    by = ["site", "table", "street"]
    dump = _counts(facing, "fold", by, excluded)
    directed = ["site", "player", "opponent"]
    by_actor, by_target = _side_z(dump, "player", by, directed), _side_z(dump, "opponent", by, directed)
    z = pd.DataFrame({"dump_z": np.minimum(by_actor["z"], by_target["z"]), "dump_n": by_actor["n"]}).reset_index()
    z["a"] = np.minimum(z["player"], z["opponent"])
    z["b"] = np.maximum(z["player"], z["opponent"])
    best = z.sort_values("dump_z", ascending=False, kind="stable").drop_duplicates(_PAIR)
    best = best.set_index(_PAIR).rename(columns={"player": "dumper"})[["dump_z", "dump_n", "dumper"]]
    return out.join(best, how="outer")


ROUNDS = 3
"""Rounds of testing: each leaves the pairs flagged so far out of the others' baselines."""


def score_pairs(pairs: pd.DataFrame, decisions: pd.DataFrame, multiway: pd.DataFrame | None = None, *,
                alpha: float = ALPHA, min_decisions: int = MIN_DECISIONS) -> pd.DataFrame:
    """``pairs`` with the three tests' statistics, p-values, score, flag and evidence
    (card sharing's from ``multiway``, :func:`multiway_decisions`; untested without).

    A pair that cheats distorts its players' baselines (a receiver who bets
    into the dumper looks passive against everyone else): so the test runs
    again with the flagged pairs' decisions left out of every baseline, until
    no new pair is flagged (at most :data:`ROUNDS` rounds)."""
    out = pairs.copy()
    shared = share_tests(multiway if multiway is not None else pd.DataFrame())
    out = out.join(shared, on=_PAIR).fillna({"share_z": 0.0, "share_n": 0})
    out["folder"] = out["folder"].fillna("")
    out["share_n"] = out["share_n"].astype(int)
    # one player's folds at one table share that table's dynamics: honest pairs' z spread wider than N(0, 1)
    out["share_scale"] = null_scale(out.loc[out["share_n"] >= min_decisions, "share_z"])
    out["share_z"] /= out["share_scale"]
    excluded: set[tuple[str, str, str]] = set()
    for _ in range(ROUNDS):
        scored = _scored(out, decisions, excluded, alpha, min_decisions)
        flagged = {(s, a, b) for s, a, b in scored.loc[scored["flagged"], _PAIR].itertuples(index=False)}
        if flagged <= excluded:
            break
        excluded |= flagged
    scored["evidence"] = _evidence(scored, decisions, multiway)
    scored = scored.sort_values(["pair_p", "raw_p", "hands"], ascending=[True, True, False],
                                kind="stable").reset_index(drop=True)
    scored.insert(0, "rank", range(1, len(scored) + 1))
    return scored


def _scored(pairs: pd.DataFrame, decisions: pd.DataFrame, excluded: set[tuple[str, str, str]], alpha: float,
            min_decisions: int) -> pd.DataFrame:
    tests = _tests(decisions, excluded, min_decisions) if not decisions.empty else pd.DataFrame(
        columns=["soft_z", "soft_n", "dump_z", "dump_n", "dumper", "soft_scale"],
        index=pd.MultiIndex.from_tuples([], names=_PAIR))
    out = pairs.join(tests, on=_PAIR)
    out = out.fillna({"soft_z": 0.0, "soft_n": 0, "dump_z": 0.0, "dump_n": 0, "soft_scale": 1.0})
    out["dumper"] = out["dumper"].fillna("")
    tested = out["soft_n"] >= min_decisions
    dump_ok = out["dump_n"] >= min_decisions // 2
    out["soft_p"] = np.where(tested, 1 - out["soft_z"].map(_normal_upper), 1.0) if len(out) else []
    out["dump_p"] = np.where(dump_ok, np.minimum(1.0, 2 * out["dump_z"].map(_normal_upper)), 1.0) if len(out) else []
    share_ok = out["share_n"] >= min_decisions
    out["share_p"] = np.where(share_ok, np.minimum(1.0, 2 * out["share_z"].map(_normal_upper)), 1.0) \
        if len(out) else []
    out["tested"] = tested | dump_ok | share_ok
    count = max(int(out["tested"].sum()), 1)
    smallest = np.minimum(np.minimum(out["soft_p"], out["dump_p"]), out["share_p"])
    out["raw_p"] = np.minimum(1.0, len(_KINDS) * smallest)
    out["pair_p"] = np.minimum(1.0, out["raw_p"] * count)
    out["score"] = -np.log10(out["pair_p"].astype(float).clip(lower=1e-300)) + 0.0
    out["flagged"] = out["pair_p"] < alpha
    p_values = out[["soft_p", "dump_p", "share_p"]].to_numpy(dtype=float)
    out["kind"] = np.array(_KINDS)[p_values.argmin(axis=1)] if len(out) else []
    return out


_KINDS = ("soft_play", "chip_dumping", "card_sharing")
"""The tests of a pair, in the order of their p-values' columns; ties go to the first."""


def _evidence(pairs: pd.DataFrame, decisions: pd.DataFrame, multiway: pd.DataFrame | None) -> list[str]:
    """The supporting hand ids: for soft play the pair's heads-up hands with the
    biggest pots; for chip dumping the dumper's folds to the other's bets; for
    card sharing the folder's folds with the other live, latest streets first."""
    d = decisions.copy()
    d["a"] = np.minimum(d["player"], d["opponent"])
    d["b"] = np.maximum(d["player"], d["opponent"])
    grouped = {key: group for key, group in d.groupby(_PAIR)}
    shared = _share_folds(multiway)
    out = []
    for site, a, b, kind, dumper, folder in pairs[[*_PAIR, "kind", "dumper", "folder"]].itertuples(index=False):
        if kind == "card_sharing":
            out.append(" ".join(shared.get((site, folder, b if folder == a else a), [])[:SUPPORT]))
            continue
        group = grouped.get((site, a, b))
        if group is None:
            out.append("")
            continue
        if kind == "chip_dumping":
            group = group[(group["player"] == dumper) & group["fold"] & group["facing_bet"]]
        top = group.sort_values("pot_before_bb", ascending=False).drop_duplicates(_KEY).head(SUPPORT)
        out.append(" ".join(f"{s}:{h}" for s, h in top[_KEY].itertuples(index=False)))
    return out


def _share_folds(multiway: pd.DataFrame | None) -> dict[tuple[str, str, str], list[str]]:
    """Per (site, folder, other): the hands where the folder folded with the other live, latest street first."""
    if multiway is None or multiway.empty:
        return {}
    folds = multiway[multiway["fold"] & ~multiway["other_bet"]].sort_values("street", ascending=False, kind="stable")
    return {(site, player, other): [f"{site}:{h}" for h in group["hand_id"].drop_duplicates()]
            for (site, player, other), group in folds.groupby(["site", "player", "other"])}


# ---------------------------------------------------------------------------- players


def player_facts(hands: pd.DataFrame, players: pd.DataFrame, decisions: pd.DataFrame,
                 pots: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per player: hands, win rate in big bets per 100 hands with its 95% interval
    (normal, from the hands' spread), heads-up decisions and their aggression;
    with ``pots``, the showdowns against what the cards shown predict
    (:func:`showdown_facts`)."""
    p = pd.DataFrame({"site": players["site"].astype(str), "player": players["player"].astype(str),
                      "net_bb": players["net_bb"].astype(float)})
    g = p.groupby(["site", "player"])["net_bb"]
    out = pd.DataFrame({"hands": g.size(), "bb_per_100": g.mean() * 100, "sd": g.std(ddof=1)})
    half = 1.96 * out["sd"].fillna(0) / np.sqrt(out["hands"]) * 100
    out["ci_low"] = (out["bb_per_100"] - half).round(2)
    out["ci_high"] = (out["bb_per_100"] + half).round(2)
    out["bb_per_100"] = out["bb_per_100"].round(2)
    hu = decisions.groupby(["site", "player"])["aggressive"].agg(heads_up_decisions="size", heads_up_aggression="mean")
    out = out.drop(columns="sd").join(hu, how="left").fillna({"heads_up_decisions": 0})
    out["heads_up_decisions"] = out["heads_up_decisions"].astype(int)
    out["heads_up_aggression"] = out["heads_up_aggression"].round(3)
    out = out.sort_values("hands", ascending=False).reset_index()
    if pots is None:
        return out
    shown = showdown_facts(players, pots)
    out = out.merge(shown, on=["site", "player"], how="left")
    counts = ["known_showdowns", "showdown_mismatches"]
    return out.fillna({c: 0 for c in shown.columns[2:]}).astype({c: int for c in counts})


SPLIT_TOLERANCE = 0.05
"""A showdown's share of the pot that differs from the cards' prediction by more
than this is a mismatch (odd chips of a split pot stay under it)."""


def showdown_facts(players: pd.DataFrame, pots: pd.DataFrame) -> pd.DataFrame:
    """Per player (``site``, ``player``): showdowns whose cards are known, the
    share of the pot their shown cards predict (summed over those showdowns),
    the share they collected, the difference, and the mismatches (showdowns
    where the two differ by more than :data:`SPLIT_TOLERANCE`).

    Known: every player at the showdown has seven cards in the log (shown, or
    the hero's) and the hand has one pot (side pots aside). The prediction is
    the rules' own: the best high hand takes the pot (stud), the best low
    (razz), half each to the best high and the best 8-or-better low (stud8;
    all to the high without a qualifying low), ties sharing. At the river the
    cards decide, so on honest, well-written logs the difference is 0: a
    difference is a pot given to the wrong player (a software fault or a log
    changed afterwards)."""
    columns = ["site", "player", "known_showdowns", "expected_share", "won_share", "showdown_deviation",
               "showdown_mismatches"]
    p = players[players["showdown"].astype(bool)]
    if p.empty:
        return pd.DataFrame(columns=columns)
    p = pd.DataFrame({"site": p["site"].astype(str), "hand_id": p["hand_id"].astype(str),
                      "variant": p["variant"].astype(str), "player": p["player"].astype(str),
                      "cards": (p["down_cards"].astype(str) + " " + p["up_cards"].astype(str)).to_numpy(),
                      "collected": p["collected"].astype(float)})
    single = pots.assign(site=pots["site"].astype(str), hand_id=pots["hand_id"].astype(str)).groupby(_KEY)["pot"]
    one_pot = single.nunique().rename("pots").reset_index()
    p = p.merge(one_pot, on=_KEY, how="left")
    p = p[p["pots"].fillna(1) == 1]
    rows = []
    for (site, hand), group in p.groupby(_KEY, sort=False):
        shown = [_seven(c) for c in group["cards"]]
        hands = [h for h in shown if h is not None]
        total = group["collected"].sum()
        if len(group) < 2 or total <= 0 or len(hands) < len(shown):
            continue
        predicted = _predicted_shares(group["variant"].iloc[0], hands)
        for player, share, got in zip(group["player"], predicted, group["collected"] / total):
            rows.append((site, player, share, got))
    if not rows:
        return pd.DataFrame(columns=columns)
    known = pd.DataFrame(rows, columns=["site", "player", "expected", "won"])
    known["mismatch"] = (known["won"] - known["expected"]).abs() > SPLIT_TOLERANCE
    g = known.groupby(["site", "player"])
    out = pd.DataFrame({"known_showdowns": g.size(), "expected_share": g["expected"].sum().round(2),
                        "won_share": g["won"].sum().round(2), "showdown_mismatches": g["mismatch"].sum()})
    out["showdown_deviation"] = (out["won_share"] - out["expected_share"]).round(2)
    return out.reset_index()[columns]


def _seven(text: str) -> list | None:
    """The seven cards of a showdown hand, or None when the log shows fewer."""
    cards = [c for c in text.replace("<NA>", "").split() if c]
    if len(cards) != 7:
        return None
    return list(parse_cards(" ".join(cards)))


def _predicted_shares(variant: str, hands: list[list]) -> list[float]:
    """Each hand's share of the pot by the variant's rules (ties share)."""
    high = [high_value(h) for h in hands]
    if variant == "razz":
        low = [low_a5_value(h) for h in hands]
        return _best(low, smaller=True)
    if variant == "stud8":
        lows = [low8_value(h) for h in hands]
        if all(v is None for v in lows):
            return _best(high, smaller=False)
        qualified = [v if v is not None else math.inf for v in lows]
        return [0.5 * h + 0.5 * lo for h, lo in zip(_best(high, smaller=False), _best(qualified, smaller=True))]
    return _best(high, smaller=False)


def _best(values: list, *, smaller: bool) -> list[float]:
    best = min(values) if smaller else max(values)
    winners = sum(v == best for v in values)
    return [1.0 / winners if v == best else 0.0 for v in values]


# ---------------------------------------------------------------------------- violations in context


def _violations_in_time(hands: pd.DataFrame, violations: pd.DataFrame) -> pd.DataFrame:
    columns = ["site", "hand_id", "rule", "party", "table", "started_utc"]
    if violations.empty:
        return pd.DataFrame(columns=columns)
    v = violations[["site", "hand_id", "rule", "party"]].astype(str)
    h = hands[["site", "hand_id", "table", "started_utc"]].copy()
    for col in ("site", "hand_id", "table"):
        h[col] = h[col].astype(str)
    return v.merge(h, on=_KEY, how="left")[columns]


def _count(violations: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    if violations.empty:
        return pd.DataFrame(columns=[*by, "violations", "hands"])
    g = violations.groupby(by)
    return pd.DataFrame({"violations": g.size(), "hands": g["hand_id"].nunique()}).reset_index().sort_values(
        "violations", ascending=False, kind="stable").reset_index(drop=True)


def _by_hour(violations: pd.DataFrame) -> pd.DataFrame:
    timed = violations.dropna(subset=["started_utc"])
    if timed.empty:
        return pd.DataFrame(columns=["hour", "violations"])
    hours = pd.to_datetime(timed["started_utc"], utc=True).dt.floor("h")
    return hours.value_counts().sort_index().rename_axis("hour").rename("violations").reset_index()


def bursts(violations: pd.DataFrame, *, minutes: int = BURST_MINUTES, faults: int = BURST_FAULTS) -> pd.DataFrame:
    """Runs of at least ``faults`` violations at one table, each within ``minutes``
    of the run's previous one... held to a window: a burst is a maximal stretch
    where every ``faults`` consecutive violations span at most ``minutes``."""
    columns = ["site", "table", "start", "end", "violations", "hands", "rules"]
    timed = violations.dropna(subset=["started_utc"])
    found = []
    window = pd.Timedelta(minutes=minutes)
    for (site, table), group in timed.groupby(["site", "table"]):
        group = group.sort_values("started_utc", kind="stable")
        times = pd.to_datetime(group["started_utc"], utc=True).to_numpy()
        dense = np.zeros(len(group), dtype=bool)
        for i in range(len(group) - faults + 1):
            if times[i + faults - 1] - times[i] <= window.to_timedelta64():
                dense[i:i + faults] = True
        for start, end in _runs(dense):
            part = group.iloc[start:end]
            found.append((site, table, part["started_utc"].iloc[0], part["started_utc"].iloc[-1], len(part),
                          part["hand_id"].nunique(), ", ".join(sorted(set(part["rule"])))))
    return pd.DataFrame(found, columns=columns)


def _runs(mask: np.ndarray) -> Iterator[tuple[int, int]]:
    start = None
    for i, on in enumerate([*mask, False]):
        if on and start is None:
            start = i
        elif not on and start is not None:
            yield start, i
            start = None


__all__ = ["ALPHA", "Integrity", "analyse", "bursts", "cmh_z", "heads_up_decisions", "multiway_decisions",
           "pair_facts", "player_facts", "score_pairs", "share_tests", "showdown_facts"]
