// Log in (/login) and sign up (/signup): the guest's games and settings go with the account.
import { t } from "./i18n.js";
import "./strings.js";
import { CONFIRM_KEY, KEPT_KEY, auth, rememberLogin } from "./api.js";
import { initNav, logOut } from "./nav.js";

initNav();
const form = document.getElementById("auth-form");
const error = document.getElementById("auth-error");

// Already logged in: the page says so and offers to go on (to ?next=, checked on the server) or
// to log out, which shows the form.
const signedIn = document.getElementById("signed-in");
if (signedIn) {
  document.getElementById("signed-in-logout").addEventListener("click", async (event) => {
    event.currentTarget.disabled = true;
    try {
      await logOut();
    } finally {
      location.reload();
    }
  });
}

// Where to go after logging in: ?next= if it is a page of this site, else the table. Checked on
// the URL the browser makes of it, not on its text: "/\evil.example" and "/\t/evil.example" look
// like paths but resolve to another site (a backslash counts as a slash, a tab is dropped).
function nextUrl() {
  const next = new URLSearchParams(location.search).get("next") || "/";
  try {
    const url = new URL(next, location.origin);
    if (url.origin === location.origin) return url.href;
  } catch {
    // not a URL at all
  }
  return "/";
}

// The other form (log in <-> sign up) keeps where to go afterwards.
const next = new URLSearchParams(location.search).get("next");
if (next) {
  for (const link of document.querySelectorAll(".switch-auth a")) {
    link.setAttribute("href", `${link.getAttribute("href")}?next=${encodeURIComponent(next)}`);
  }
}

function describe(err) {
  if (err.code === "bad_credentials") return t("auth.failed");
  return err.detail || t("error.generic");
}

// Each problem beside its field, in the player's language (issue 16, item 13).
const FIELD_OF = {
  username_taken: "username",
  bad_username: "username",
  weak_password: "password",
  bad_email: "email",
};
function fieldError(name, text) {
  const input = form.elements[name];
  let note = document.getElementById(`${name}-error`);
  if (!note) {
    note = Object.assign(document.createElement("span"), { id: `${name}-error`, className: "field-error" });
    input.after(note);
  }
  note.textContent = text || "";
  note.hidden = !text;
  input.setAttribute("aria-invalid", String(Boolean(text)));
  // Beside what describes the field already (the password's rules on the sign-up page).
  const described = (input.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== note.id);
  input.setAttribute("aria-describedby", [...described, note.id].join(" "));
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const mode = form.dataset.mode; // "login" | "signup"
  error.hidden = true;
  const username = form.elements.username.value.trim();
  const password = form.elements.password.value;
  fieldError("username", username ? "" : t("auth.field.required"));
  fieldError("password", password ? "" : t("auth.field.required"));
  if (!username || !password) {
    form.elements[username ? "password" : "username"].focus();
    return;
  }
  const submit = form.querySelector("button[type=submit]");
  submit.disabled = true;
  try {
    const email = form.elements.email ? form.elements.email.value.trim() : "";
    const answer =
      mode === "signup" ? await auth.register(username, password, email) : await auth.login(username, password);
    rememberLogin((answer && answer.username) || username);
    // The next page says once that the guest's games are the account's now (nav.js).
    if (answer && answer.games_kept > 0) sessionStorage.setItem(KEPT_KEY, String(answer.games_kept));
    // ... and that a link to confirm the address is on its way (issue 49).
    if (mode === "signup" && email) sessionStorage.setItem(CONFIRM_KEY, email);
    location.href = nextUrl();
  } catch (err) {
    if (FIELD_OF[err.code]) fieldError(FIELD_OF[err.code], describe(err));
    else {
      error.textContent = describe(err);
      error.hidden = false;
    }
    submit.disabled = false;
  }
});
