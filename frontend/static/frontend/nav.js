// The header: who is playing (guest or account), log out.
import { t } from "./i18n.js";
import { auth, currentUser, rememberLogin } from "./api.js";

export async function initNav() {
  const page = document.documentElement.dataset.page;
  for (const link of document.querySelectorAll(".site-nav a[data-page]")) {
    if (link.dataset.page === page) link.setAttribute("aria-current", "page");
  }
  const box = document.getElementById("account");
  const user = await currentUser();
  box.replaceChildren();
  if (user) {
    const who = document.createElement("a");
    who.className = "who";
    who.href = "/stats";
    who.textContent = user.username;
    const out = document.createElement("button");
    out.type = "button";
    out.className = "link-button";
    out.id = "logout-button";
    out.textContent = t("nav.logout");
    out.addEventListener("click", async () => {
      out.disabled = true;
      try {
        await auth.logout();
        rememberLogin(null);
      } finally {
        location.href = "/";
      }
    });
    const account = document.createElement("a");
    account.href = "/account";
    account.id = "account-link";
    account.textContent = t("nav.account");
    if (page === "account") account.setAttribute("aria-current", "page");
    box.append(who, account, out);
  } else {
    const guest = document.createElement("span");
    guest.className = "who guest";
    guest.textContent = t("nav.guest");
    // Back here after logging in or signing up (from those pages themselves: where they lead).
    const onAuthPage = page === "login" || page === "signup";
    const back = onAuthPage ? new URLSearchParams(location.search).get("next") : location.pathname + location.search;
    const next = back ? `?next=${encodeURIComponent(back)}` : "";
    const login = document.createElement("a");
    login.href = `/login${next}`;
    login.textContent = t("nav.login");
    const signup = document.createElement("a");
    signup.href = `/signup${next}`;
    signup.className = "button small";
    signup.textContent = t("nav.signup");
    box.append(guest, login, signup);
  }
  box.hidden = false;
  return user;
}
