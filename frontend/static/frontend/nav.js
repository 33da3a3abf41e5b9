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
    box.append(who, out);
  } else {
    const guest = document.createElement("span");
    guest.className = "who guest";
    guest.textContent = t("nav.guest");
    const login = document.createElement("a");
    login.href = `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
    login.textContent = t("nav.login");
    const signup = document.createElement("a");
    signup.href = "/signup";
    signup.className = "button small";
    signup.textContent = t("nav.signup");
    box.append(guest, login, signup);
  }
  box.hidden = false;
  return user;
}
