"""The validating stud engine: state machine, legal actions, pots, showdown, site profiles.

* :class:`StudState` - feed it a hand's events one at a time; it records rule
  violations and knows whose turn it is; :meth:`StudState.legal_actions` lists
  exactly what the player to act may do.
* :func:`finish` - close a hand: uncalled bets, pots, awards, totals, results.
* :func:`expected_collections` - what each player should collect (simulators).
* :class:`RuleProfile`, :func:`get_profile` - per-site house rules as data.
* :mod:`.result` - the output types (HandCheck, PlayerResult, PotAward, Violation).
"""

from .pots import Pot, build_pots
from .profiles import DEFAULT, POKERSTARS, RuleProfile, get_profile, profiles, register
from .result import HandCheck, PlayerResult, PotAward, Violation
from .settle import expected_collections, finish
from .state import LegalAction, LegalActions, PlayerState, StudState

__all__ = [
    "DEFAULT", "HandCheck", "LegalAction", "LegalActions", "POKERSTARS", "PlayerResult", "PlayerState",
    "Pot", "PotAward", "RuleProfile", "StudState", "Violation", "build_pots", "expected_collections",
    "finish", "get_profile", "profiles", "register",
]
