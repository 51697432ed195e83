// The editor's "Insert image", in place: the picture is sent alone, the server stores it (with the
// same checks as without this script) and answers its Markdown, which goes in at the cursor.
// Without this script (or when the answer is not the Markdown: logged out, a server away), the
// button posts the whole form, and the page comes back with the text and the image in it.
"use strict";

(function () {
  var button = document.querySelector("button[data-insert-image]");
  var form = button && button.form;
  var body = form && form.querySelector("textarea[name=body]");
  if (!body) return;
  var file = form.querySelector("input[name=insert_image]");
  var alt = form.querySelector("input[name=insert_alt]");
  var cursor = form.querySelector("input[name=insert_at]");

  // A description to start from: the file's name without its extension.
  file.addEventListener("change", function () {
    if (!alt.value && file.files.length) alt.value = file.files[0].name.replace(/\.[^.]*$/, "");
  });

  var status = document.createElement("p");
  status.setAttribute("role", "status");
  button.parentNode.appendChild(status);

  function put(markdown) {
    var at = body.selectionStart;
    var text = body.value;
    var before = text.slice(0, at);
    var after = text.slice(at);
    var lead = !before || /\n\n$/.test(before) ? "" : /\n$/.test(before) ? "\n" : "\n\n";
    var trail = !after || /^\n\n/.test(after) ? "" : /^\n/.test(after) ? "\n" : "\n\n";
    body.value = before + lead + markdown + trail + after;
    var end = (before + lead + markdown).length;
    body.setSelectionRange(end, end);
    body.dispatchEvent(new Event("input", { bubbles: true })); // the live preview follows
  }

  var falling = false; // the form's own submission, after the script gave up
  form.addEventListener("submit", function (event) {
    if (event.submitter !== button) return;
    cursor.value = String(body.selectionStart);
    if (falling || !window.fetch) return;
    event.preventDefault();
    var fields = new FormData();
    ["csrf_token", "article", "insert_alt"].forEach(function (name) {
      var input = form.querySelector("input[name=" + name + "]");
      if (input) fields.append(name, input.value);
    });
    if (file.files.length) fields.append("insert_image", file.files[0]);
    button.disabled = true;
    fetch(button.getAttribute("formaction"), {
      method: "POST",
      body: fields,
      headers: { "Accept": "application/json" },
      credentials: "same-origin",
      redirect: "manual"
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") !== 0) throw new Error("not an answer for the script");
      return response.json().then(function (answer) {
        button.disabled = false;
        if (!response.ok) {
          status.className = "form-error";
          status.textContent = answer.error || form.dataset.wordImageNotInserted;
          return;
        }
        put(answer.markdown);
        file.value = "";
        alt.value = "";
        status.className = "form-note";
        status.textContent = form.dataset.wordImageInserted;
      });
    }).catch(function () {
      // Post the whole form instead: it keeps the text through a login, and brings it back.
      button.disabled = false;
      falling = true;
      form.requestSubmit(button);
    });
  });
})();
