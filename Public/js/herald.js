// Herald's one script: likes and comments without a full reload, for a logged-in reader.
// Without it (or for an anonymous reader, whose click must go to the login page and be resumed
// there) every form works as an ordinary form. No framework, no build step.
"use strict";

(function () {
  if (!document.body || !document.body.hasAttribute("data-reader")) return;

  var live = document.createElement("p");
  live.className = "visually-hidden";
  live.setAttribute("aria-live", "polite");
  document.body.appendChild(live);

  function announce(text) {
    live.textContent = "";
    window.setTimeout(function () { live.textContent = text; }, 50);
  }

  // The words this script writes come from the page (layout.mustache), in its language.
  function word(name) {
    return document.body.dataset[name] || "";
  }

  function send(form) {
    return fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { "Accept": "application/json" },
      credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error(data.error || word("wordFailed"));
        return data;
      }, function () {
        throw new Error(word("wordFailed"));
      });
    });
  }

  function showError(form, message) {
    var error = form.querySelector(".js-error");
    if (!error) {
      error = document.createElement("p");
      error.className = "form-error js-error";
      error.setAttribute("role", "alert");
      form.insertBefore(error, form.firstChild);
    }
    error.textContent = message;
  }

  function clearError(form) {
    var error = form.querySelector(".js-error");
    if (error) error.remove();
  }

  function like(form) {
    var button = form.querySelector("button");
    button.disabled = true;
    send(form).then(function (state) {
      clearError(form);
      var count = document.querySelector("[data-like-count]");
      if (count) {
        count.setAttribute("data-like-count", String(state.count));
        count.textContent = String(state.count);
      }
      var label = count && count.parentNode.lastChild;
      if (label && label.nodeType === 3) label.textContent = " " + word(state.count === 1 ? "wordLikeOne" : "wordLikeMany");
      form.action = form.action.replace(state.liked ? /\/like$/ : /\/unlike$/, state.liked ? "/unlike" : "/like");
      button.textContent = word(state.liked ? "wordLiked" : "wordLike");
      button.className = state.liked ? "secondary" : "";
      announce(word(state.liked ? "wordAnnounceLiked" : "wordAnnounceUnliked"));
    }).catch(function (error) {
      showError(form, error.message);
    }).then(function () {
      button.disabled = false;
      button.focus();
    });
  }

  // The heading says "Comments (N)": one more, as the server will say on the next load.
  function countComment() {
    var heading = document.getElementById("comments-heading");
    if (!heading) return;
    var total = parseInt(heading.getAttribute("data-comment-total"), 10) + 1;
    if (isNaN(total)) return;
    heading.setAttribute("data-comment-total", String(total));
    heading.textContent = "Comments (" + total + ")";
  }

  function comment(form) {
    var button = form.querySelector("button[type=submit]");
    var textarea = form.querySelector("textarea");
    button.disabled = true;
    send(form).then(function (posted) {
      clearError(form);
      var holder = document.createElement("ol");
      holder.innerHTML = posted.html;
      var item = holder.firstElementChild;
      var list;
      if (posted.parent) {
        var parent = document.getElementById("comment-" + posted.parent);
        list = parent && parent.querySelector(":scope > ol.replies");
        if (parent && !list) {
          list = document.createElement("ol");
          list.className = "replies";
          parent.appendChild(list);
        }
      }
      if (!list) {
        list = document.querySelector("ol.comment-list");
        if (!list) {
          list = document.createElement("ol");
          list.className = "comment-list";
          var empty = document.querySelector(".comments .empty");
          if (empty) empty.replaceWith(list);
          else form.parentNode.insertBefore(list, form);
        }
      }
      list.appendChild(item);
      countComment();
      textarea.value = "";
      var details = form.closest("details");
      if (details) details.open = false;
      item.setAttribute("tabindex", "-1");
      item.focus();
      announce(word("wordCommentPosted"));
    }).catch(function (error) {
      showError(form, error.message);
      textarea.focus();
    }).then(function () {
      button.disabled = false;
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (form.classList.contains("like-form")) {
      event.preventDefault();
      like(form);
    } else if (form.classList.contains("comment-form") && form.action.indexOf("/comments/") === -1) {
      event.preventDefault();
      comment(form);
    }
  });
})();
