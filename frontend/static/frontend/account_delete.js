// Deleting one's account (/account/delete): the password asked again, then DELETE auth/me; the
// session is a guest's afterwards, and the table says that the account was deleted.
import { t } from "./i18n.js";
import "./strings.js";
import { auth, rememberLogin } from "./api.js";
import { initNav } from "./nav.js";

initNav();
const form = document.getElementById("delete-form");
const error = document.getElementById("delete-error");
const password = document.getElementById("password");

function say(text) {
  error.textContent = text;
  error.hidden = !text;
  password.setAttribute("aria-invalid", String(Boolean(text)));
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  say("");
  if (!password.value) {
    say(t("auth.field.required"));
    password.focus();
    return;
  }
  const submit = document.getElementById("delete-submit");
  submit.disabled = true;
  try {
    await auth.deleteAccount(password.value);
  } catch (err) {
    if (err.code === "signed_out") {
      location.href = "/login?next=/account/delete";
      return;
    }
    say(err.detail || t(err.status === 0 ? "error.network" : "error.generic"));
    submit.disabled = false;
    password.select();
    return;
  }
  rememberLogin(null);
  try {
    localStorage.removeItem("yukon.game"); // its games are gone
  } catch (err) {
    /* no storage */
  }
  location.href = "/?account=deleted";
});
