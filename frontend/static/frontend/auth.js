// Log in (/login) and sign up (/signup): the guest's games and settings go with the account.
import { t } from "./i18n.js";
import { auth, rememberLogin } from "./api.js";
import { initNav } from "./nav.js";

initNav();
const form = document.getElementById("auth-form");
const error = document.getElementById("auth-error");
const mode = form.dataset.mode; // "login" | "signup"

function nextUrl() {
  const next = new URLSearchParams(location.search).get("next") || "/";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
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
  if (err.detail) return err.detail;
  const body = err.body || {};
  const first = Object.values(body.errors || body.fields || {})[0];
  return (Array.isArray(first) ? first[0] : first) || t("error.generic");
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.hidden = true;
  const username = form.elements.username.value.trim();
  const password = form.elements.password.value;
  const submit = form.querySelector("button[type=submit]");
  submit.disabled = true;
  try {
    const answer = mode === "signup" ? await auth.register(username, password) : await auth.login(username, password);
    rememberLogin((answer && answer.username) || username);
    location.href = nextUrl();
  } catch (err) {
    error.textContent = describe(err);
    error.hidden = false;
    submit.disabled = false;
  }
});
