"""The registry of site formats.

Each site module exposes ``FORMAT``, a :class:`~studbook.sites.base.SiteFormat`.
Modules are imported lazily, on first use, so a grammar is compiled only
when its site is needed and importing :mod:`studbook.sites` stays cheap.
Add a site by adding one line to ``_BUILTIN`` (or call :func:`register`).
Detection asks the formats in registration order, so put formats with
stricter ``detect`` checks first.
"""

from __future__ import annotations

import importlib
from typing import Iterator

from studbook.sites.base import HandText, SiteFormat

_BUILTIN: dict[str, str] = {
    "pokerstars": "studbook.sites.pokerstars",
    "fulltilt": "studbook.sites.fulltilt",
    "winning": "studbook.sites.winning",
    "kingsclub": "studbook.sites.kingsclub",
    "absolute": "studbook.sites.absolute",
    "bovada": "studbook.sites.bovada",
    "partypoker": "studbook.sites.partypoker",
    "winamax": "studbook.sites.winamax",
    "ongame": "studbook.sites.ongame",
    "everleaf": "studbook.sites.everleaf",
    "betonline": "studbook.sites.betonline",
    "ipoker": "studbook.sites.ipoker",
    "merge": "studbook.sites.merge",
    "phh": "studbook.sites.phh",
}
_LOADED: dict[str, SiteFormat] = {}


def register(fmt: SiteFormat) -> None:
    """Add (or replace) a format under ``fmt.name``."""
    _BUILTIN.setdefault(fmt.name, "")
    _LOADED[fmt.name] = fmt


def site_names() -> tuple[str, ...]:
    """Names accepted by ``get_site`` and ``--site``, in detection order."""
    return tuple(_BUILTIN)


def get_site(name: str) -> SiteFormat:
    """The format called ``name``; KeyError names the known sites."""
    key = name.strip().lower()
    if key not in _BUILTIN:
        raise KeyError(f"unknown site {name!r} (known: {', '.join(_BUILTIN)})")
    if key not in _LOADED:
        module = importlib.import_module(_BUILTIN[key])
        _LOADED[key] = module.FORMAT
    return _LOADED[key]


def all_sites() -> tuple[SiteFormat, ...]:
    """Every registered format, in detection order."""
    return tuple(get_site(name) for name in _BUILTIN)


def sites_in_order() -> Iterator[SiteFormat]:
    """Every registered format in detection order, each imported when reached:
    detection stops at the first that accepts, so a PokerStars file imports no other site."""
    return (get_site(name) for name in _BUILTIN)


__all__ = ["HandText", "SiteFormat", "all_sites", "get_site", "register", "site_names", "sites_in_order"]
