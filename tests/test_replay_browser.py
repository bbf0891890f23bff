"""The HTML replayer in a real headless browser (Debian's Chromium through Selenium).

The page is built from the shipped sample histories (``histories/``: so a fresh
clone drives it too), stepped through with the keys, and what is on screen is
checked against the page's own JSON and the hands: the pot text, which cards
are face down, the result panel against the table, the winning cards ringed
(the community card among them), the rake after the award, big bets on every
amount, the counter in poker words, violations at their step, and the table,
the hero's seat and the controls inside the window at every step of a long
8-handed hand at 1024x600, 1280x720 and 1920x1080 (and a phone held sideways).
Screenshots go to ``out/test-screenshots/`` (docs/replay.png is one of them).
Skips, saying why, without Chromium.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterator

import pytest

import studbook
from browser import browser
from studbook.events import Hand
from studbook.view import replay
from studbook.view.html import page

REPO = Path(__file__).resolve().parents[1]
SHOTS = REPO / "out" / "test-screenshots"
HISTORIES = REPO / "histories"
AALTJE = "HH20240302 Aaltje IV - $0.50-$1 Ante $0.10 - USD Limit Stud.txt"
EUNIKE = "HH20240312 Eunike V - $0.50-$1 Ante $0.10 - USD Limit Stud Hi-Lo.txt"
LONG = (AALTJE, "258263419673")  # 8 players, four pots, eight hands shown, the deck runs short
COMMUNITY_WINS = (AALTJE, "258263416683")  # the community card is in the winner's five
HI_LO = (EUNIKE, "253396136526")  # stud hi/lo, 8 players to the showdown
VIOLATIONS = ("planted-violations.txt", "258878136596")
ORDER = [LONG, HI_LO, COMMUNITY_WINS, VIOLATIONS]
SIZES = [(1024, 600), (1280, 720), (1920, 1080)]


def shipped(where: tuple[str, str]) -> Hand:
    name, hand_id = where
    return next(h for h in studbook.parse_file(HISTORIES / name) if isinstance(h, Hand) and h.hand_id == hand_id)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    yield from browser()


def page_data(html: str) -> dict[str, Any]:
    return json.loads(re.search(r'id="studbook-replay">(.*?)</script>', html, re.S)[1])  # type: ignore[index]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    html = page([replay(shipped(where)) for where in ORDER])
    path = tmp_path_factory.mktemp("html") / "replay.html"
    path.write_text(html, encoding="utf-8")
    return path, page_data(html)


# what the page shows, read in one call: the pot text and each seat's down cards (data-card, "" face down)
SCREEN = """
var seats = {};
document.querySelectorAll(".seat").forEach(function (s) {
  seats[s.dataset.player] = Array.from(s.querySelectorAll(".card.down")).map(function (c) { return c.dataset.card; });
});
return [document.getElementById("pot-amount").textContent, seats];
"""

# the window's size and where the table, the hero's seat, every control and every seat lie
BOXES = """
function box(e) { var r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }
var out = {window: [window.innerWidth, window.innerHeight], table: box(document.getElementById("table")),
           controls: box(document.getElementById("controls")), seats: {}, buttons: []};
document.querySelectorAll(".seat").forEach(function (s) { out.seats[s.dataset.player] = box(s); });
document.querySelectorAll("#controls button, #controls input, #step-counter").forEach(function (b) {
  out.buttons.push(box(b)); });
return out;
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


def step_now(driver: Any) -> int:
    from selenium.webdriver.common.by import By

    return int(driver.find_element(By.ID, "step-counter").get_attribute("data-step"))


def window(driver: Any, width: int, height: int) -> None:
    """The page's viewport exactly ``width`` x ``height`` (the window's frame added)."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])


def open_page(driver: Any, path: Path, size: tuple[int, int] = (1400, 900)) -> None:
    window(driver, *size)
    driver.get(path.as_uri())
    assert step_now(driver) == 0 and text_of(driver, "step-counter") == "before the deal"


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
            if name != hero and step["kind"] not in ("showdown", "award", "result"):
                assert all(f == "" for f in faces), (i, name)  # opponents' down cards face down
        if step["label"] == "5th street · the deal":
            save(driver, "fifth-street-dealt.png")
    assert step_now(driver) == len(hand["steps"]) - 1 and text_of(driver, "step-counter") == "result"


def test_steps_a_player_recognises(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    """The antes one step, a street's deal one step ("next street" lands with the cards out),
    the counter in poker words with the file's lines on hover, the result last."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    hand = data["hands"][0]
    keys(driver, Keys.ARROW_RIGHT)
    assert text_of(driver, "step-counter") == "antes" and text_of(driver, "last-action") == "8 antes posted"
    assert text_of(driver, "pot-amount") == "0.80"
    keys(driver, Keys.ARROW_RIGHT)
    assert text_of(driver, "step-counter") == "3rd street · the deal"
    assert all(len(by_css(driver, f'.seat[data-player="{n}"] .card')) == 3 for n in hand["players"])
    keys(driver, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    counter = driver.find_element(By.ID, "step-counter")
    assert re.fullmatch(r"3rd street · action 4 of \d+", counter.text)
    assert re.fullmatch(rf"step 6 of {len(hand['steps']) - 1} · line \d+ of .*Aaltje IV.*", counter.get_attribute("title"))
    keys(driver, Keys.ARROW_DOWN)
    assert text_of(driver, "step-counter") == "4th street · the deal"
    live = [n for n in hand["players"] if n not in hand["steps"][step_now(driver)]["folded"]]
    assert live and all(len(by_css(driver, f'.seat[data-player="{n}"] .card')) == 4 for n in live)
    save(driver, "fourth-street-dealt.png")
    keys(driver, Keys.END)
    assert text_of(driver, "step-counter") == "result"
    log = [e.text for e in by_css(driver, "#log li")]
    assert "8 antes posted" in log and not any("posts the ante" in line for line in log)
    assert any(line.startswith("summary:") or "summary: " in line for line in log)  # summary lines: in the log
    results = text_of(driver, "results")
    for pot in hand["pots"]:
        assert f"{pot['name']} {shown_money(pot['amount'])} \u2192" in results
    save(driver, "result-step.png")


def test_result_panel_and_table_agree_at_every_step(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    """A hand the result panel lists is face up on the table; the rake is labelled after the award."""
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    for number, hand in enumerate(data["hands"]):
        if number:
            keys(driver, "n")
        for i in range(len(hand["steps"])):
            if i:
                keys(driver, Keys.ARROW_RIGHT)
            _, seats = driver.execute_script(SCREEN)
            listed = [e.text.split(":")[0] for e in by_css(driver, "#results .shown")]
            for name in listed:
                assert "" not in seats[name], (hand["hand_id"], i, name)
            if i >= hand["award_step"]:
                shown = {s["player"] for s in hand["showdown"]}
                face_up = {n for n in shown if "" not in seats[n]}
                assert set(listed) == face_up, (hand["hand_id"], i)
        last = hand["steps"][-1]
        if Decimal(last["pot"]) > 0:
            assert text_of(driver, "pot-label") == "Rake" and "rake " + shown_money(last["pot"]) in text_of(driver, "results")


def test_winning_fives_ringed_wherever_their_cards_lie(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    for number, hand in enumerate(data["hands"][:3]):
        if number:
            keys(driver, "n")
        keys(driver, Keys.END)
        community = [e.get_attribute("data-card") for e in by_css(driver, "#community .card.win-high")]
        for pot in hand["pots"]:
            for half, best in (("high", pot["best_high"]), ("low", pot["best_low"])):
                for name in best:
                    five = next(s for s in hand["showdown"] if s["player"] == name)[f"{half}_five"]
                    ringed = [e.get_attribute("data-card")
                              for e in by_css(driver, f'.seat[data-player="{name}"] .card.win-{half}')]
                    ringed += [e.get_attribute("data-card") for e in by_css(driver, f"#community .card.win-{half}")]
                    assert sorted(ringed) == sorted(five), (hand["hand_id"], name, half)
        if hand["hand_id"] == COMMUNITY_WINS[1]:
            assert community == [hand["steps"][-1]["community"]]
            save(driver, "community-card-ringed.png")


@pytest.mark.parametrize("size", SIZES + [(844, 390)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_table_hero_and_controls_in_view_at_every_step(driver: Any, built: tuple[Path, dict[str, Any]],
                                                       size: tuple[int, int]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path, size)
    hand = data["hands"][0]
    assert len(hand["players"]) == 8 and len(hand["pots"]) == 4 and len(hand["showdown"]) == 8

    def inside(box: list[float], outer: list[float]) -> bool:
        return box[0] >= outer[0] - 0.5 and box[1] >= outer[1] - 0.5 and box[2] <= outer[2] + 0.5 and box[3] <= outer[3] + 0.5

    for i in range(len(hand["steps"])):
        if i:
            keys(driver, Keys.ARROW_RIGHT)
        boxes = driver.execute_script(BOXES)
        width, height = boxes["window"]
        assert (width, height) == size
        view = [0, 0, width, height]
        assert inside(boxes["table"], view), (size, i, boxes["table"])
        assert inside(boxes["controls"], view), (size, i, boxes["controls"])
        assert all(inside(b, view) for b in boxes["buttons"]), (size, i)
        assert inside(boxes["seats"][hand["hero"]], view), (size, i)
        assert all(inside(b, boxes["table"]) for b in boxes["seats"].values()), (size, i)
        if hand["steps"][i]["label"] in ("3rd street · the deal", "result"):
            save(driver, f"layout-{size[0]}x{size[1]}-{hand['steps'][i]['kind']}.png")


def in_big_bets(amount: str, big_bet: str) -> str:
    """An amount as the page writes it in big bets (JavaScript's shortest number text)."""
    value = round(float(amount) / float(big_bet), 2)
    return (str(int(value)) if value == int(value) else repr(value)) + " BB"


def test_big_bets_on_every_amount(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    """Every line of the log, the last action, the pot, the stacks and the result in big bets."""
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    hand = data["hands"][0]
    big = hand["stakes"]["big_bet"]

    def written(entry: dict[str, Any]) -> str:
        words = "".join(w if isinstance(w, str) else in_big_bets(w[0], big) for w in entry["words"])
        return (entry["actor"] + " " if entry["actor"] else "") + words

    keys(driver, Keys.END, "b")
    expected = [written(e) for step in hand["steps"][1:] for e in step["log"]]
    assert [e.get_attribute("textContent") for e in by_css(driver, "#log li")] == expected
    assert sum(" BB" in line for line in expected) > 20
    last = hand["steps"][-1]
    assert text_of(driver, "pot-amount") == in_big_bets(last["pot"], big)
    stacks = {e.get_attribute("data-player"): e.find_element("css selector", ".stack").text for e in by_css(driver, ".seat")}
    assert stacks == {name: in_big_bets(stack, big) for name, stack in last["stacks"].items()}
    results = text_of(driver, "results")
    for pot in hand["pots"]:
        assert f"{pot['name']} {in_big_bets(pot['amount'], big)} \u2192" in results
    keys(driver, Keys.HOME, *[Keys.ARROW_RIGHT] * 4)
    step = hand["steps"][4]
    assert text_of(driver, "last-action") == written({"actor": step["actor"], "words": step["words"]})
    keys(driver, "b")
    assert "BB" not in text_of(driver, "pot-amount")


def test_reveal_key_shows_known_cards(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    hand = data["hands"][0]
    player = next(n for n in hand["players"] if n != hand["hero"] and n in hand["known"])
    keys(driver, Keys.ARROW_DOWN, Keys.ARROW_DOWN)  # 3rd street's deal
    seat = f'.seat[data-player="{player}"] .card.down'
    assert [e.get_attribute("data-card") for e in by_css(driver, seat)] == ["", ""]
    keys(driver, "r")
    assert [e.get_attribute("data-card") for e in by_css(driver, seat)] == hand["known"][player][:2]
    assert all("revealed" in (e.get_attribute("class") or "") for e in by_css(driver, seat))
    keys(driver, "r")


def test_streets_community_card_and_hand_list(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    from selenium.webdriver.common.keys import Keys

    path, data = built
    open_page(driver, path)
    keys(driver, "n")
    hand = data["hands"][1]
    assert hand["hand_id"] == HI_LO[1]
    keys(driver, Keys.ARROW_DOWN)
    assert text_of(driver, "street").lower().startswith("3rd street")
    keys(driver, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert text_of(driver, "street").lower().startswith("5th street")
    keys(driver, Keys.ARROW_UP)
    assert text_of(driver, "street").lower().startswith("4th street")
    at = next(i for i, s in enumerate(hand["steps"]) if s["community"])
    assert hand["steps"][at]["label"] == "7th street (river) · the deal"
    keys(driver, Keys.HOME, *[Keys.ARROW_RIGHT] * at)
    assert [e.get_attribute("data-card") for e in by_css(driver, "#community .card")] == [hand["steps"][at]["community"]]
    keys(driver, Keys.END)
    last = hand["steps"][-1]
    folded = by_css(driver, ".seat.folded")
    assert len(folded) == len(last["folded"])  # folded players stay at the table, greyed
    window(driver, 1280, 720)
    save(driver, "replay.png")  # docs/replay.png


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


# Every delay the page asks of setTimeout, noted before its own script runs: what a speed
# is (ms a step), read without timing the browser, whose timers run late on a loaded machine
TIMER_SPY = """
window.studbookDelays = [];
var setTimeoutOfThePage = window.setTimeout;
window.setTimeout = function (handler, delay) {
  window.studbookDelays.push(delay);
  return setTimeoutOfThePage.apply(window, arguments);
};
"""


def test_play_pause_and_speed(driver: Any, built: tuple[Path, dict[str, Any]]) -> None:
    import time

    from selenium.webdriver.support.ui import WebDriverWait

    path, _ = built
    spy = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TIMER_SPY})["identifier"]
    try:
        open_page(driver, path)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": spy})
    keys(driver, "+", "+", "+")  # fastest
    assert text_of(driver, "speed") == "speed 6"
    keys(driver, " ")
    WebDriverWait(driver, 120, poll_frequency=0.05).until(lambda d: step_now(d) >= 2)  # playing: it steps
    keys(driver, " ")
    moved = step_now(driver)
    delays = driver.execute_script("return window.studbookDelays")
    assert len(delays) >= moved and set(delays) == {200}  # a step every 200 ms: speed 6's
    time.sleep(0.5)  # two and a half steps at that speed
    assert step_now(driver) == moved  # paused
    assert driver.execute_script("return window.studbookDelays.length") == len(delays)  # no step to come


def test_corpus_stud8_side_pot_halves(driver: Any, corpus: Path, tmp_path: Path) -> None:
    """A real hand with a side pot split high and low (the corpus's; skipped without it)."""
    from selenium.webdriver.common.keys import Keys
    from test_replay import STUD8_SIDE_POT, load

    html = page([replay(load(corpus, STUD8_SIDE_POT))])
    path = tmp_path / "stud8.html"
    path.write_text(html, encoding="utf-8")
    open_page(driver, path)
    keys(driver, Keys.END)
    for name, high, low in (("Hero", 5, 5), ("Player3", 5, 0), ("Player0", 0, 5)):
        assert len(by_css(driver, f'.seat[data-player="{name}"] .card.win-high')) == high, name
        assert len(by_css(driver, f'.seat[data-player="{name}"] .card.win-low')) == low, name
    results = text_of(driver, "results")
    assert "main pot 320 \u2192 Hero 320 (high and low)" in results
    assert "side pot 1 300 \u2192 Player0 150 (low), Player3 150 (high)" in results
