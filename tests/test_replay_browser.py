"""The HTML replayer in a real headless browser (Debian's Chromium through Selenium).

The page is built from corpus hands, stepped through with the keys, and what is
on screen is checked against the page's own JSON and the hands: the pot text,
which cards are face down, the winning cards highlighted, the community card,
violations at their step. Screenshots go to ``out/test-screenshots/`` (the
README's picture is one of them). Skips, saying why, without Chromium.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from browser import browser
from studbook.view import replay
from studbook.view.html import page
from test_replay import COMMUNITY_8, RAZZ_7TH, RUN_OUT, STUD8_SIDE_POT, load

SHOTS = Path(__file__).resolve().parents[1] / "out" / "test-screenshots"
VIOLATION_HAND = ("KingsClub/Razz-USD-500-100-202101.multi.pot.failure.txt", "3537921")
ORDER = [STUD8_SIDE_POT, COMMUNITY_8, RUN_OUT, RAZZ_7TH, VIOLATION_HAND]


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    yield from browser()


@pytest.fixture(scope="module")
def built(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    html = page([replay(load(corpus, where)) for where in ORDER])
    path = tmp_path_factory.mktemp("html") / "replay.html"
    path.write_text(html, encoding="utf-8")
    data = json.loads(re.search(r'id="studbook-replay">(.*?)</script>', html, re.S)[1])  # type: ignore[index]
    return path, data


# what the page shows, read in one call: the pot text and each seat's down cards (data-card, "" face down)
SCREEN = """
var seats = {};
document.querySelectorAll(".seat").forEach(function (s) {
  seats[s.dataset.player] = Array.from(s.querySelectorAll(".card.down")).map(function (c) { return c.dataset.card; });
});
return [document.getElementById("pot-amount").textContent, seats];
"""


def shown_money(text: str) -> str:
    """The page's way of writing an amount: whole numbers bare, else two decimals."""
    value = float(text)
    return str(round(value)) if value == round(value) else f"{value:.2f}"


def keys(driver: Any, *sequence: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    chain = ActionChains(driver)
    for key in sequence:
        chain.send_keys(key)
    chain.perform()


def by_css(driver: Any, css: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, css)


def text_of(driver: Any, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.ID, element_id).text)


def open_page(driver: Any, path: Path) -> None:
    driver.get(path.as_uri())
    assert text_of(driver, "step-counter").startswith("step 0 /")


def save(driver: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / name))


def test_pot_and_face_down_cards_at_every_step(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    hand = data["hands"][0]
    hero = hand["hero"]
    for i, step in enumerate(hand["steps"]):
        if i:
            keys(driver, Keys.ARROW_RIGHT)
        pot, seats = driver.execute_script(SCREEN)
        assert pot == shown_money(step["pot"]), i
        for name, cards in step["cards"].items():
            faces = seats[name]
            assert faces == [c["card"] or "" for c in cards if not c["up"]], (i, name)
            if name != hero and i < hand["award_step"] - 10:
                assert all(f == "" for f in faces), (i, name)  # opponents' down cards face down
        if i == 30:
            save(driver, "stud8-fifth-street.png")
    assert text_of(driver, "step-counter").startswith(f"step {len(hand['steps']) - 1} /")


def test_showdown_highlights_winning_cards(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    keys(driver, Keys.END)
    for name, high, low in (("Hero", 5, 5), ("Player3", 5, 0), ("Player0", 0, 5)):
        assert len(by_css(driver, f'.seat[data-player="{name}"] .card.win-high')) == high, name
        assert len(by_css(driver, f'.seat[data-player="{name}"] .card.win-low')) == low, name
    hero_low = [e.get_attribute("data-card") for e in by_css(driver, '.seat[data-player="Hero"] .card.win-low')]
    shown = {s["player"]: s for s in data["hands"][0]["showdown"]}
    assert sorted(hero_low) == sorted(shown["Hero"]["low_five"])
    results = text_of(driver, "results")
    assert "main pot 320 \u2192 Hero 320 (high and low)" in results
    assert "side pot 1 300 \u2192 Player0 150 (low), Player3 150 (high)" in results
    save(driver, "stud8-showdown.png")


def test_reveal_key_shows_known_cards(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    keys(driver, *[Keys.ARROW_RIGHT] * 20)
    player0 = '.seat[data-player="Player0"] .card.down'
    assert [e.get_attribute("data-card") for e in by_css(driver, player0)] == ["", ""]
    keys(driver, "r")
    assert [e.get_attribute("data-card") for e in by_css(driver, player0)] == data["hands"][0]["known"]["Player0"][:2]
    assert all("revealed" in (e.get_attribute("class") or "") for e in by_css(driver, player0))
    keys(driver, "r")


def test_streets_community_card_and_hand_list(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    keys(driver, "n")
    hand = data["hands"][1]
    assert hand["hand_id"] == COMMUNITY_8[1]
    keys(driver, Keys.ARROW_DOWN)  # to 3rd street
    assert text_of(driver, "street").lower().startswith("3rd street")
    keys(driver, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert text_of(driver, "street").lower().startswith("5th street")
    keys(driver, Keys.ARROW_UP)
    assert text_of(driver, "street").lower().startswith("4th street")
    at = next(i for i, s in enumerate(hand["steps"]) if s["event"] == "DealCommunity")
    keys(driver, Keys.HOME, *[Keys.ARROW_RIGHT] * at)
    assert [e.get_attribute("data-card") for e in by_css(driver, "#community .card")] == [hand["steps"][at]["community"]]
    assert not hand["steps"][at]["folded"]  # eight players live to 7th street: the deck runs short
    save(driver, "community-card.png")
    keys(driver, Keys.END)
    last = hand["steps"][-1]
    folded = by_css(driver, ".seat.folded")
    assert len(folded) == len(last["folded"]) > 0  # folded players stay at the table, greyed
    assert all(by_css(driver, f'.seat.folded[data-player="{n}"] .card.up') for n in last["folded"])
    save(driver, "readme-replay.png")


def test_violation_marked_at_its_step(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    keys(driver, "p")  # the last hand of the list
    hand = data["hands"][-1]
    at = next(i for i, s in enumerate(hand["steps"]) if s["violations"])
    keys(driver, *[Keys.ARROW_RIGHT] * (at - 1))
    assert by_css(driver, "#violations .violation") == []
    keys(driver, Keys.ARROW_RIGHT)
    rules = [e.text for e in by_css(driver, "#violations .rule")]
    assert rules == [v["rule"] for v in hand["steps"][at]["violations"]]
    message = hand["steps"][at]["violations"][0]["message"]
    assert message in driver.find_element(By.ID, "violations").text


def test_play_pause_and_speed(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    import time

    path, _ = built
    open_page(driver, path)
    keys(driver, "+", "+", "+")  # fastest
    assert text_of(driver, "speed") == "speed 6"
    keys(driver, " ")
    time.sleep(0.9)
    keys(driver, " ")
    moved = int(text_of(driver, "step-counter").split()[1])
    assert moved >= 2
    time.sleep(0.5)
    assert int(text_of(driver, "step-counter").split()[1]) == moved  # paused
