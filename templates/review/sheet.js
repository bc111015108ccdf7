// The review sheet's filters, search, keyboard navigation, term links and sign-off copy.
// Plain JavaScript, no library, no network: the page opens from disk.
(function () {
  "use strict";
  var cards = Array.prototype.slice.call(document.querySelectorAll("section.card"));
  var onlyFindings = document.getElementById("only-findings");
  var rule = document.getElementById("rule");
  var state = document.getElementById("state");
  var search = document.getElementById("search");
  var shown = document.getElementById("shown");
  var nothing = document.getElementById("nothing");
  var current = null;

  function matches(card) {
    if (onlyFindings.checked && card.dataset.findings === "0") return false;
    if (rule.value && (" " + card.dataset.codes + " ").indexOf(" " + rule.value + " ") < 0) return false;
    if (state.value && card.dataset.state !== state.value) return false;
    var words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    for (var i = 0; i < words.length; i++) {
      if (card.dataset.search.indexOf(words[i]) < 0) return false;
    }
    return true;
  }

  function apply() {
    var count = 0;
    cards.forEach(function (card) {
      var visible = matches(card);
      card.hidden = !visible;
      if (visible) count += 1;
    });
    shown.textContent = count + " of " + cards.length + " cards shown";
    nothing.hidden = count !== 0;
    document.querySelectorAll(".rule-filter").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.dataset.code === rule.value));
    });
    document.querySelectorAll(".state-filter").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.dataset.state === state.value));
    });
    if (current && current.hidden) select(null);
  }

  [onlyFindings, rule, state].forEach(function (control) {
    control.addEventListener("change", apply);
  });
  search.addEventListener("input", apply);
  document.querySelectorAll(".rule-filter").forEach(function (button) {
    button.addEventListener("click", function () {
      rule.value = rule.value === button.dataset.code ? "" : button.dataset.code;
      apply();
    });
  });
  document.querySelectorAll(".state-filter").forEach(function (button) {
    button.addEventListener("click", function () {
      state.value = state.value === button.dataset.state ? "" : button.dataset.state;
      apply();
    });
  });

  function select(card) {
    if (current) current.classList.remove("current");
    current = card;
    if (!card) return;
    card.classList.add("current");
    card.focus({preventScroll: true});
    card.scrollIntoView({block: "start"});
    if (history.replaceState) history.replaceState(null, "", "#" + card.id);
  }

  function move(step) {
    var candidates = cards.filter(function (card) {
      return !card.hidden && card.dataset.findings !== "0";
    });
    if (!candidates.length) return;
    var index = candidates.indexOf(current);
    var next;
    if (index >= 0) {
      next = candidates[Math.min(Math.max(index + step, 0), candidates.length - 1)];
    } else {
      // From no card, or one without findings: the nearest one with findings that way.
      var position = current ? cards.indexOf(current) : (step > 0 ? -1 : cards.length);
      var ahead = candidates.filter(function (card) {
        return step > 0 ? cards.indexOf(card) > position : cards.indexOf(card) < position;
      });
      next = ahead.length ? ahead[step > 0 ? 0 : ahead.length - 1]
        : candidates[step > 0 ? candidates.length - 1 : 0];
    }
    select(next);
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var typing = target && (target.tagName === "INPUT" || target.tagName === "SELECT" ||
      target.tagName === "TEXTAREA");
    if (event.key === "Escape" && typing) { target.blur(); return; }
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "n" || event.key === "j") { move(1); event.preventDefault(); }
    else if (event.key === "p" || event.key === "k") { move(-1); event.preventDefault(); }
    else if (event.key === "/") { search.focus(); event.preventDefault(); }
  });

  // A glossary term: pointing at it marks its counterpart in the other language.
  document.querySelectorAll(".term[data-term]").forEach(function (term) {
    function mark(on) {
      var card = term.closest("section.card");
      card.querySelectorAll('.term[data-term="' + term.dataset.term + '"]').forEach(function (other) {
        other.classList.toggle("linked", on);
      });
    }
    term.addEventListener("mouseenter", function () { mark(true); });
    term.addEventListener("mouseleave", function () { mark(false); });
    term.addEventListener("click", function () { mark(!term.classList.contains("linked")); });
  });

  // Sign-off: copy the command line (the clipboard API needs a secure context; a page
  // opened from disk may not have one, so select the text as a fallback).
  document.querySelectorAll(".signoff").forEach(function (box) {
    var input = box.querySelector("input");
    var button = box.querySelector("button.copy");
    input.addEventListener("focus", function () { input.select(); });
    button.addEventListener("click", function () {
      input.focus();
      input.select();
      var done = function () { button.textContent = "copied"; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () {});
      } else {
        try { if (document.execCommand("copy")) done(); } catch (error) { /* selected */ }
      }
    });
  });

  apply();
  if (location.hash) {
    var target = document.getElementById(location.hash.slice(1));
    if (target && target.classList.contains("card")) select(target);
  }
})();
