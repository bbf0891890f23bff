// studbook replayer: reads the hands from <script id="studbook-replay"> and draws one step at a time.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("studbook-replay").textContent);
  var HANDS = DATA.hands;
  var SPEEDS = [2400, 1600, 1000, 650, 400, 200];  // ms per step
  var SUITS = { s: ["\u2660", "#111"], h: ["\u2665", "#c8102e"], d: ["\u2666", "#1565c0"], c: ["\u2663", "#1b7a2e"] };
  var view = { hand: 0, step: 0, playing: false, speed: 2, reveal: false, bigBets: false, timer: null };
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function money(text) {
    if (text === null || text === undefined) return "";
    var hand = HANDS[view.hand];
    if (view.bigBets) {
      var bb = Number(hand.stakes.big_bet);
      return (Math.round(Number(text) / bb * 100) / 100) + " BB";
    }
    var n = Number(text);
    return n === Math.round(n) ? String(Math.round(n)) : n.toFixed(2);
  }

  // an event's words: text as strings, each amount as [amount] (written in big bets when asked)
  function said(words) {
    return words.map(function (w) { return typeof w === "string" ? w : money(w[0]); }).join("");
  }

  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // one card as inline SVG: face (rank and suit) or back
  function cardElement(card, up, revealed) {
    var span = el("span", "card " + (up ? "up" : "down") + (card ? " face" : " back") + (revealed ? " revealed" : ""));
    span.setAttribute("data-card", card || "");
    var s = svg("svg", { width: 30, height: 42, viewBox: "0 0 36 50", role: "img", "aria-label": card || "face down" });
    if (card) {
      var rank = card[0] === "T" ? "10" : card[0], suit = SUITS[card[1]];
      s.appendChild(svg("rect", { "class": "bg", x: 0.5, y: 0.5, width: 35, height: 49, rx: 4, fill: "#fff", stroke: "#999" }));
      s.appendChild(svg("text", { x: 4, y: 17, "font-size": 15, "font-weight": 700, fill: suit[1], "font-family": "sans-serif" }, rank));
      s.appendChild(svg("text", { x: 18, y: 42, "font-size": 22, "text-anchor": "middle", fill: suit[1] }, suit[0]));
    } else {
      s.appendChild(svg("rect", { x: 0.5, y: 0.5, width: 35, height: 49, rx: 4, fill: "url(#sb-back)", stroke: "#ddd" }));
      s.appendChild(svg("rect", { x: 4, y: 4, width: 28, height: 42, rx: 2, fill: "none", stroke: "#cfd8ff", "stroke-width": 1 }));
    }
    span.appendChild(s);
    return span;
  }

  // seats around the table, hero at the bottom, clockwise; each seat's centre placed so that the whole
  // seat stays inside the table whatever the screen's size
  function placeSeats(hand) {
    var table = $("table"), W = table.clientWidth, H = table.clientHeight;
    var players = hand.players.slice().sort(function (a, b) { return hand.seats[a] - hand.seats[b]; });
    var n = players.length, start = hand.hero ? Math.max(0, players.indexOf(hand.hero)) : 0;
    var divs = {}, widest = 0, tallest = 0;
    document.querySelectorAll("#seats .seat").forEach(function (d) {
      divs[d.getAttribute("data-player")] = d;
      widest = Math.max(widest, d.offsetWidth); tallest = Math.max(tallest, d.offsetHeight);
    });
    var rx = Math.max(0, W / 2 - widest / 2 - 4), ry = Math.max(0, H / 2 - tallest / 2 - 4);
    for (var i = 0; i < n; i++) {
      var k = (i - start + n) % n, angle = Math.PI / 2 + 2 * Math.PI * k / n, d = divs[players[i]];
      if (!d) continue;
      var y = H / 2 + ry * Math.sin(angle);
      d.style.left = (W / 2 + rx * Math.cos(angle)) + "px"; d.style.top = y + "px";
      var front = d.querySelector(".front");  // the chips in front, towards the middle of the table
      if (front) front.style[y > H / 2 ? "top" : "bottom"] = "-1.4em";
    }
  }

  // does the table show this player's hand at this step (every down card face up, or revealed)?
  function tableShows(hand, step, name) {
    var cards = step.cards[name] || [], known = hand.known[name] || [], down = 0;
    return cards.length > 0 && cards.every(function (c) {
      if (c.up) return true;
      var seen = c.card || (view.reveal && known[down]);
      down++;
      return !!seen;
    });
  }

  // the cards to ring once the pot is awarded: each winner's high and low five, where the table shows them
  function winners(hand, step) {
    var out = {};
    hand.pots.forEach(function (pot) {
      var took = pot.high.concat(pot.low).map(function (w) { return w[0]; });
      took.forEach(function (name) {
        var shown = hand.showdown.filter(function (s) { return s.player === name; })[0];
        if (!shown || !tableShows(hand, step, name)) return;
        var mark = out[name] || (out[name] = { high: [], low: [] });
        if (pot.best_high.indexOf(name) >= 0) mark.high = shown.high_five;
        if (pot.best_low.indexOf(name) >= 0) mark.low = shown.low_five;
      });
    });
    return out;
  }

  function streetStarts(hand) {
    var out = [0];
    hand.steps.forEach(function (s, i) { if (i && s.starts_street) out.push(i); });
    return out;
  }

  function render() {
    var hand = HANDS[view.hand], step = hand.steps[view.step];
    var seats = $("seats");
    var awarded = view.step >= hand.award_step, wins = awarded ? winners(hand, step) : {};
    var blamed = {};
    step.violations.forEach(function () { if (step.actor) blamed[step.actor] = true; });
    seats.textContent = "";
    hand.players.forEach(function (name) {
      var div = el("div", "seat");
      div.setAttribute("data-player", name);
      if (name === hand.hero) div.classList.add("hero");
      if (step.folded.indexOf(name) >= 0) div.classList.add("folded");
      if (step.all_in.indexOf(name) >= 0) div.classList.add("all-in");
      if (step.to_act === name) div.classList.add("to-act");
      if (step.actor === name) div.classList.add("acting");
      if (blamed[name]) div.classList.add("violation");
      div.appendChild(el("div", "name", name + (name === hand.hero ? " (hero)" : "")));
      div.appendChild(el("div", "stack", money(step.stacks[name])));
      var row = el("div", "cards"), downIndex = 0, known = hand.known[name] || [];
      var mark = wins[name] || { high: [], low: [] };
      (step.cards[name] || []).forEach(function (c) {
        var card = c.card, revealed = false;
        if (!c.up) {
          if (!card && view.reveal && known[downIndex]) { card = known[downIndex]; revealed = true; }
          downIndex++;
        }
        var span = cardElement(card, c.up, revealed);
        if (card) {
          if (mark.high.indexOf(card) >= 0) span.classList.add("win-high");
          if (mark.low.indexOf(card) >= 0) span.classList.add("win-low");
        }
        row.appendChild(span);
      });
      div.appendChild(row);
      if (step.in_front[name]) div.appendChild(el("div", "front", money(step.in_front[name])));
      seats.appendChild(div);
    });
    placeSeats(hand);
    $("street").textContent = step.kind === "result" ? "result" : step.kind === "showdown" || step.kind === "award" ? "showdown"
      : step.street ? ordinal(step.street) + " street" + (step.street === 7 ? " (river)" : "") : step.kind === "antes" ? "antes" : "seats";
    $("pot-label").textContent = step.pot_label.charAt(0).toUpperCase() + step.pot_label.slice(1);
    $("pot").classList.toggle("rake", step.pot_label !== "pot");
    $("pot-amount").textContent = money(step.pot);
    $("side-pots").textContent = step.pots.length > 1 && step.pot_label === "pot"
      ? step.pots.map(function (p) { return p.name + " " + money(p.amount); }).join(" \u00b7 ") : "";
    var community = $("community");
    community.textContent = "";
    if (step.community) {
      community.appendChild(el("span", "label", "community card"));
      var shared = cardElement(step.community, true, false);
      for (var who in wins) {  // the community card is part of every hand: ring it where it is in a winning five
        if (wins[who].high.indexOf(step.community) >= 0) shared.classList.add("win-high");
        if (wins[who].low.indexOf(step.community) >= 0) shared.classList.add("win-low");
      }
      community.appendChild(shared);
    }
    $("last-action").textContent = (step.actor ? step.actor + " " : "") + said(step.words);
    renderViolations(step);
    renderResults(hand, step, awarded);
    renderLog(hand);
    var counter = $("step-counter"), lines = step.lines;
    counter.textContent = step.label;
    counter.setAttribute("data-step", String(view.step));
    counter.title = "step " + view.step + " of " + (hand.steps.length - 1) +
      (lines.length ? " \u00b7 " + (lines.length > 1 ? "lines " + lines[0] + "\u2013" + lines[lines.length - 1] : "line " + lines[0])
        + " of " + hand.file : "");
    $("speed").textContent = "speed " + (view.speed + 1);
    $("play").textContent = view.playing ? "pause" : "play";
    $("reveal").checked = view.reveal;
    $("big-bets").checked = view.bigBets;
  }

  function ordinal(n) { return n + (n === 3 ? "rd" : "th"); }

  function renderViolations(step) {
    var box = $("violations");
    box.textContent = "";
    step.violations.forEach(function (v) {
      var div = el("div", "violation");
      div.appendChild(el("span", "rule", v.rule));
      div.appendChild(document.createTextNode(" line " + v.line + ": " + v.message));
      box.appendChild(div);
    });
  }

  function renderResults(hand, step, awarded) {
    var box = $("results");
    box.textContent = "";
    if (!awarded) return;
    box.appendChild(el("h2", "", "Result"));
    hand.showdown.forEach(function (s) {
      if (!tableShows(hand, step, s.player)) return;  // the panel lists the hands the table shows, no more
      var line = el("div", "shown");
      line.appendChild(el("b", "", s.player + ": "));
      if (s.high) line.appendChild(el("span", "hi", s.high + " [" + s.high_five.join(" ") + "]"));
      if (s.high && s.low) line.appendChild(document.createTextNode(" / "));
      if (s.low) line.appendChild(el("span", "lo", s.low + (s.low_five.length ? " [" + s.low_five.join(" ") + "]" : "")));
      box.appendChild(line);
    });
    hand.pots.forEach(function (p) {
      var parts = [];
      // the log may not say which half a collector took: name it from the hands shown
      var halves = function (name) {
        if (p.low.length || !p.best_low.length || !p.best_high.length) return "";
        var h = [];
        if (p.best_high.indexOf(name) >= 0) h.push("high");
        if (p.best_low.indexOf(name) >= 0) h.push("low");
        return h.length ? " (" + h.join(" and ") + ")" : "";
      };
      if (p.high.length) parts.push((p.low.length ? "high: " : "") + p.high.map(function (w) { return w[0] + " " + money(w[1]) + halves(w[0]); }).join(", "));
      if (p.low.length) parts.push("low: " + p.low.map(function (w) { return w[0] + " " + money(w[1]); }).join(", "));
      var div = el("div", "pot-result", p.name + " " + money(p.amount) + " \u2192 " + (parts.join("; ") || "nobody collected"));
      box.appendChild(div);
    });
    if (step.pot_label !== "pot") box.appendChild(el("div", "rake", step.pot_label + " " + money(step.pot)));
  }

  function renderLog(hand) {
    var log = $("log");
    log.textContent = "";
    var current = null;
    for (var i = 1; i <= view.step; i++) {
      var s = hand.steps[i];
      s.log.forEach(function (entry) {
        var li = el("li", entry.class, (entry.actor ? entry.actor + " " : "") + said(entry.words));
        if (s.violations.length) li.classList.add("has-violation");
        if (i === view.step) { li.classList.add("current"); current = li; }
        log.appendChild(li);
      });
    }
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  function go(step) {
    var n = HANDS[view.hand].steps.length;
    view.step = Math.max(0, Math.min(n - 1, step));
    if (view.step === n - 1) pause();
    render();
  }

  function street(direction) {
    var starts = streetStarts(HANDS[view.hand]), target = direction > 0 ? HANDS[view.hand].steps.length - 1 : 0;
    if (direction > 0) {
      for (var i = 0; i < starts.length; i++) if (starts[i] > view.step) { target = starts[i]; break; }
    } else {
      for (var j = starts.length - 1; j >= 0; j--) if (starts[j] < view.step) { target = starts[j]; break; }
    }
    go(target);
  }

  function selectHand(i) {
    pause();
    view.hand = (i + HANDS.length) % HANDS.length;
    view.step = 0;
    $("hand-list").value = String(view.hand);
    var hand = HANDS[view.hand];
    $("hand-info").textContent = hand.site + " \u00b7 " + hand.variant + " \u00b7 " + hand.game +
      (hand.table ? " \u00b7 table " + hand.table : "") + " \u00b7 " + hand.stakes.small_bet + "/" + hand.stakes.big_bet;
    render();
  }

  function tick() { if (view.step >= HANDS[view.hand].steps.length - 1) { pause(); render(); return; } go(view.step + 1); schedule(); }
  function schedule() { clearTimeout(view.timer); if (view.playing) view.timer = setTimeout(tick, SPEEDS[view.speed]); }
  function play() { view.playing = true; schedule(); render(); }
  function pause() { view.playing = false; clearTimeout(view.timer); }
  function toggle() { if (view.playing) { pause(); render(); } else play(); }
  function speed(d) { view.speed = Math.max(0, Math.min(SPEEDS.length - 1, view.speed + d)); schedule(); render(); }

  function init() {
    var list = $("hand-list");
    HANDS.forEach(function (h, i) {
      var o = el("option", "", h.site + " " + h.hand_id + " (" + h.variant + ")");
      o.value = String(i);
      list.appendChild(o);
    });
    list.addEventListener("change", function () { selectHand(Number(list.value)); });
    $("first").onclick = function () { go(0); };
    $("last").onclick = function () { go(Infinity); };
    $("prev").onclick = function () { go(view.step - 1); };
    $("next").onclick = function () { go(view.step + 1); };
    $("prev-street").onclick = function () { street(-1); };
    $("next-street").onclick = function () { street(1); };
    $("play").onclick = toggle;
    $("slower").onclick = function () { speed(-1); };
    $("faster").onclick = function () { speed(1); };
    $("reveal").onchange = function (e) { view.reveal = e.target.checked; render(); };
    $("big-bets").onchange = function (e) { view.bigBets = e.target.checked; render(); };
    document.addEventListener("keydown", function (e) {
      if (e.target && e.target.tagName === "SELECT") return;
      var keys = {
        ArrowRight: function () { go(view.step + 1); }, ArrowLeft: function () { go(view.step - 1); },
        ArrowDown: function () { street(1); }, ArrowUp: function () { street(-1); },
        Home: function () { go(0); }, End: function () { go(Infinity); }, " ": toggle,
        "+": function () { speed(1); }, "=": function () { speed(1); }, "-": function () { speed(-1); },
        n: function () { selectHand(view.hand + 1); }, p: function () { selectHand(view.hand - 1); },
        r: function () { view.reveal = !view.reveal; render(); }, b: function () { view.bigBets = !view.bigBets; render(); }
      };
      var action = keys[e.key];
      if (action) { e.preventDefault(); action(); }
    });
    window.addEventListener("resize", function () { if (HANDS.length) placeSeats(HANDS[view.hand]); });
    // a link to page.html#site:hand_id (or #hand_id) opens that hand
    var fromHash = function () {
      var want = decodeURIComponent(location.hash.slice(1));
      for (var i = 0; i < HANDS.length; i++) {
        if (HANDS[i].site + ":" + HANDS[i].hand_id === want || HANDS[i].hand_id === want) return i;
      }
      return 0;
    };
    window.addEventListener("hashchange", function () { if (HANDS.length) selectHand(fromHash()); });
    if (HANDS.length) selectHand(fromHash());
    else $("hand-info").textContent = "no hands";
  }

  init();
})();
