// The editor's live preview: as the editor types, the text is sent to the server, which renders
// it with the same Markdown renderer and the same rule on pictures from other sites as Save, and
// the answer is shown beside the form (below it on a narrow screen). Nothing is rendered here.
// Without this script the Preview button does the same with one click.
"use strict";

(function () {
  var form = document.querySelector("form[data-live-preview]");
  var body = form && form.querySelector("textarea[name=body]");
  if (!body || !window.fetch) return;

  // Long texts go over the preview's body limit: the Preview button still shows them.
  var maximumBytes = 60000;
  var waitMilliseconds = 400;

  var preview = document.querySelector("[data-preview]");
  if (!preview) {
    preview = document.createElement("section");
    preview.className = "preview";
    preview.setAttribute("data-preview", "");
    preview.innerHTML = '<h2>Preview</h2><div class="article-body"></div>';
  }
  preview.classList.remove("preview-first");
  preview.classList.add("live-preview");
  preview.setAttribute("aria-live", "polite");
  var shown = preview.querySelector(".article-body");
  var problem = document.createElement("p");
  problem.className = "form-error";
  problem.hidden = true;
  preview.insertBefore(problem, shown);

  // Side by side: the form and its preview in one grid (stacked under 60rem, by the stylesheet).
  var split = document.createElement("div");
  split.className = "editor-split";
  form.parentNode.insertBefore(split, form);
  split.appendChild(form);
  split.appendChild(preview);

  var timer = null;
  var asked = 0;

  function show(answer) {
    shown.innerHTML = answer.html; // the server's HTML: raw HTML in the text is escaped there
    problem.textContent = answer.error || "";
    problem.hidden = !answer.error;
  }

  function refresh() {
    var text = body.value;
    if (new Blob([text]).size > maximumBytes) {
      show({ html: shown.innerHTML, error: form.dataset.wordTextLong });
      return;
    }
    var fields = new URLSearchParams();
    var token = form.querySelector("input[name=csrf_token]");
    if (token) fields.append("csrf_token", token.value);
    fields.append("body", text);
    var mine = ++asked;
    fetch(form.getAttribute("data-live-preview"), {
      method: "POST",
      body: fields,
      headers: { "Accept": "application/json" },
      credentials: "same-origin",
      redirect: "manual"
    }).then(function (response) {
      if (!response.ok) throw new Error("status " + response.status);
      return response.json();
    }).then(function (answer) {
      if (mine === asked) show(answer); // an older answer arriving late is dropped
    }).catch(function () {
      // Logged out, or the server is away: the form itself keeps working, and keeps the text.
    });
  }

  body.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(refresh, waitMilliseconds);
  });
  if (!preview.querySelector(".article-body").innerHTML.trim() && body.value.trim()) refresh();
})();
