// The account's pages: /account (e-mail, password, language, play settings, sessions, API tokens),
// the request for a password-reset link, and the pages its link and a confirmation link open.
// Every piece of data comes from the auth API (auth/me, auth/email, auth/password, auth/language,
// auth/settings, auth/sessions, auth/tokens).
import { addStrings, lang, t, tn } from "./i18n.js";
import "./strings.js";
import { auth, rememberLogin, social } from "./api.js";
import { initNav } from "./nav.js";
import { Settings, bindSettingsDialog } from "./settings.js";

const pgettext = globalThis.django?.pgettext ?? ((context, text) => text);

addStrings({
  "account.email.confirmed": pgettext("account.email.confirmed", "{email} – confirmed."),
  "account.email.waiting": pgettext("account.email.waiting", "{email} – waiting for confirmation: open the link in the mail sent to it."),
  "account.email.both": pgettext(
    "account.email.both",
    "{email} – confirmed. {pending} waits for confirmation and replaces it once confirmed.",
  ),
  "account.email.none": pgettext("account.email.none", "No e-mail address."),
  "account.email.removed": pgettext("account.email.removed", "The address is removed."),
  "account.email.remove.password": pgettext("account.email.remove.password", "Enter your password to remove the address."),
  "account.email.remove.confirm": pgettext(
    "account.email.remove.confirm",
    "Remove the address? Without it a forgotten password cannot be reset.",
  ),
  "account.password.changed": pgettext(
    "account.password.changed",
    "The password is changed. Every other session and token of the account has ended.",
  ),
  "account.language.saved": pgettext("account.language.saved", "Saved."),
  "account.sessions.this": pgettext("account.sessions.this", "this browser"),
  "account.sessions.seen": pgettext("account.sessions.seen", "last seen {when}"),
  "account.sessions.since": pgettext("account.sessions.since", "logged in {when}"),
  "account.sessions.unknown": pgettext("account.sessions.unknown", "Unknown browser"),
  "account.sessions.ended.one": pgettext("account.sessions.ended.one", "1 other session was logged out."),
  "account.sessions.ended.other": pgettext("account.sessions.ended.other", "{n} other sessions were logged out."),
  "account.tokens.none": pgettext("account.tokens.none", "No API tokens."),
  "account.tokens.used": pgettext("account.tokens.used", "used {when}"),
  "account.tokens.unused": pgettext("account.tokens.unused", "never used"),
  "account.tokens.made": pgettext("account.tokens.made", "made {when}"),
  "account.tokens.revoke": pgettext("account.tokens.revoke", "Revoke"),
  "account.tokens.revoked": pgettext("account.tokens.revoked", "The token is revoked."),
  "account.tokens.current": pgettext("account.tokens.current", "this browser's login"),
  "account.field.required": pgettext("account.field.required", "Please fill in this field."),
});

const when = (iso) =>
  new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "de-DE", { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(iso),
  );

function message(err) {
  return (err && err.detail) || t("error.generic");
}

function say(id, text, { error = false } = {}) {
  const node = document.getElementById(id);
  if (!node) return;
  node.textContent = text || "";
  node.classList.toggle("is-error", Boolean(error));
}

/** A form's submit: `handler(form)` runs with the button disabled; its error lands in `statusId`. */
function onSubmit(form, statusId, handler) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    say(statusId, "");
    button.disabled = true;
    try {
      await handler(form);
    } catch (err) {
      say(statusId, message(err), { error: true });
    } finally {
      button.disabled = false;
    }
  });
}

// -- e-mail ---------------------------------------------------------------------------------------

function showEmail(me) {
  const state = document.getElementById("email-state");
  const missing = document.getElementById("email-missing");
  const remove = document.getElementById("email-remove");
  const pending = me.email_pending;
  if (me.email_confirmed && pending) state.textContent = t("account.email.both", { email: me.email, pending });
  else if (me.email_confirmed) state.textContent = t("account.email.confirmed", { email: me.email });
  else if (pending) state.textContent = t("account.email.waiting", { email: pending });
  else state.textContent = t("account.email.none");
  missing.hidden = Boolean(me.email_confirmed);
  remove.hidden = !me.email && !pending;
}

function bindEmail(me) {
  showEmail(me);
  const form = document.getElementById("email-form");
  onSubmit(form, "email-status", async () => {
    const email = form.elements.email.value.trim();
    const password = form.elements.password.value;
    for (const [value, field] of [[email, form.elements.email], [password, form.elements.password]]) {
      if (!value) {
        say("email-status", t("account.field.required"), { error: true });
        field.focus();
        return;
      }
    }
    const answer = await auth.setEmail(email, password);
    say("email-status", answer.detail);
    form.reset();
    showEmail(await auth.me());
  });
  document.getElementById("email-remove").addEventListener("click", async () => {
    const password = form.elements.password.value;
    if (!password) {
      say("email-status", t("account.email.remove.password"), { error: true });
      form.elements.password.focus();
      return;
    }
    if (!window.confirm(t("account.email.remove.confirm"))) return;
    try {
      await auth.removeEmail(password);
      form.reset();
      say("email-status", t("account.email.removed"));
      showEmail(await auth.me());
    } catch (err) {
      say("email-status", message(err), { error: true });
    }
  });
}

// -- password -------------------------------------------------------------------------------------

function bindPassword() {
  const form = document.getElementById("password-form");
  onSubmit(form, "password-status", async () => {
    const old_password = form.elements.old_password.value;
    const new_password = form.elements.new_password.value;
    if (!old_password || !new_password) {
      say("password-status", t("account.field.required"), { error: true });
      form.elements[old_password ? "new_password" : "old_password"].focus();
      return;
    }
    await auth.changePassword(old_password, new_password);
    form.reset();
    await Promise.all([showSessions(), showTokens()]);
    say("password-status", t("account.password.changed"));
  });
}

// -- language -------------------------------------------------------------------------------------

function bindLanguage(me) {
  const select = document.getElementById("language-select");
  select.value = me.language || "";
  select.addEventListener("change", async () => {
    try {
      await auth.setLanguage(select.value);
      // The page in the chosen language (the cookie is set; the browser's when none is chosen).
      const wanted = select.value || (navigator.language || "de").slice(0, 2);
      if (wanted !== lang) location.reload();
      else say("language-status", t("account.language.saved"));
    } catch (err) {
      say("language-status", message(err), { error: true });
    }
  });
}

// -- sessions and tokens --------------------------------------------------------------------------

function item(main, detail, action) {
  const li = document.createElement("li");
  const text = document.createElement("div");
  const strong = document.createElement("strong");
  strong.textContent = main;
  const small = document.createElement("small");
  small.textContent = detail;
  text.append(strong, small);
  li.append(text);
  if (action) li.append(action);
  return li;
}

async function showSessions() {
  const list = document.getElementById("sessions-list");
  const sessions = await auth.sessions();
  list.replaceChildren(
    ...sessions.map((s) => {
      const name = s.user_agent || t("account.sessions.unknown");
      const parts = [t("account.sessions.since", { when: when(s.created_at) })];
      parts.push(s.current ? t("account.sessions.this") : t("account.sessions.seen", { when: when(s.last_seen_at) }));
      const li = item(name, parts.join(" · "));
      if (s.current) li.classList.add("current");
      return li;
    }),
  );
  document.getElementById("sessions-end").disabled = !sessions.some((s) => !s.current);
}

function bindSessions() {
  const button = document.getElementById("sessions-end");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const { ended } = await auth.endOtherSessions();
      await Promise.all([showSessions(), showTokens()]);
      say("sessions-status", tn("account.sessions.ended", ended));
    } catch (err) {
      say("sessions-status", message(err), { error: true });
      button.disabled = false;
    }
  });
}

async function showTokens() {
  const list = document.getElementById("tokens-list");
  const tokens = await auth.tokens();
  if (!tokens.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = t("account.tokens.none");
    list.replaceChildren(li);
    return;
  }
  list.replaceChildren(
    ...tokens.map((token) => {
      const parts = [`${token.prefix}…`, t("account.tokens.made", { when: when(token.created_at) })];
      parts.push(token.last_used_at ? t("account.tokens.used", { when: when(token.last_used_at) }) : t("account.tokens.unused"));
      if (token.current) parts.push(t("account.tokens.current"));
      const revoke = document.createElement("button");
      revoke.type = "button";
      revoke.className = "button small ghost-dark";
      revoke.textContent = t("account.tokens.revoke");
      revoke.dataset.token = token.id;
      revoke.setAttribute("aria-label", `${t("account.tokens.revoke")}: ${token.name} (${token.prefix}…)`);
      revoke.addEventListener("click", async () => {
        revoke.disabled = true;
        try {
          await auth.revokeToken(token.id);
          say("tokens-status", t("account.tokens.revoked"));
          document.getElementById("token-new").hidden = true;
          await showTokens();
        } catch (err) {
          say("tokens-status", message(err), { error: true });
          revoke.disabled = false;
        }
      });
      return item(token.name, parts.join(" · "), revoke);
    }),
  );
}

function bindTokens() {
  const form = document.getElementById("token-form");
  onSubmit(form, "tokens-status", async () => {
    const made = await auth.makeToken(form.elements.name.value.trim());
    form.reset();
    document.getElementById("token-key").textContent = made.token;
    document.getElementById("token-new").hidden = false;
    await showTokens();
  });
}

/** The profile shown only to the players one follows (PUT me/privacy); the switch goes back if the
 *  server refuses. */
async function bindPrivacy() {
  const box = document.getElementById("privacy-hidden");
  try {
    box.checked = (await social.privacy()).profile_hidden;
  } catch (err) {
    say("privacy-status", message(err), { error: true });
    return;
  }
  box.disabled = false;
  box.addEventListener("change", async () => {
    const wanted = box.checked;
    box.disabled = true;
    try {
      box.checked = (await social.privacySet(wanted)).profile_hidden;
      say("privacy-status", t("account.language.saved"));
    } catch (err) {
      box.checked = !wanted;
      say("privacy-status", message(err), { error: true });
    } finally {
      box.disabled = false;
    }
  });
}

// -- the pages ------------------------------------------------------------------------------------

async function accountPage() {
  let me;
  try {
    me = await auth.me();
  } catch (err) {
    me = null;
  }
  if (!me || !me.authenticated) {
    rememberLogin(null);
    location.href = "/login?next=/account";
    return;
  }
  rememberLogin(me.username); // (after a reset link's login this browser may still think it is a guest's)
  initNav();
  bindEmail(me);
  bindPassword();
  bindLanguage(me);
  const settings = new Settings();
  settings.loadLocal();
  await settings.loadAccount(me);
  bindSettingsDialog(document.getElementById("settings-section"), settings);
  bindSessions();
  bindTokens();
  await Promise.all([showSessions(), showTokens(), bindPrivacy()]);
}

function resetRequestPage() {
  initNav();
  const form = document.getElementById("reset-form");
  const sent = document.getElementById("reset-sent");
  const error = document.getElementById("reset-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const email = form.elements.email.value.trim();
    if (!email) {
      error.textContent = t("account.field.required");
      error.hidden = false;
      form.elements.email.focus();
      return;
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const answer = await auth.requestPasswordReset(email);
      sent.textContent = answer.detail;
      sent.hidden = false;
    } catch (err) {
      error.textContent = message(err);
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
}

const page = document.documentElement.dataset.page;
if (page === "account") accountPage();
else if (page === "password_reset") resetRequestPage();
else initNav();
