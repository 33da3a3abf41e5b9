// The clubs page (/clubs): the player's clubs and a form to make one; and where an invite link
// leads (/clubs/join/<invite>): a button that joins. Over GET/POST clubs and POST clubs/join.
import { t, formatNumber } from "./i18n.js";
import "./strings.js";
import "./social_strings.js";
import { social } from "./api.js";
import { initNav } from "./nav.js";

const $ = (id) => document.getElementById(id);
initNav();

function showError(err) {
  const box = $("clubs-error");
  box.textContent = err.detail || t("error.generic");
  box.hidden = false;
}

const membersText = (n) => (n === 1 ? t("clubs.members.one") : t("clubs.members.other", { n: formatNumber(n) }));

async function list() {
  const clubs = await social.clubs();
  const items = clubs.map((club) => {
    const item = document.createElement("li");
    const link = Object.assign(document.createElement("a"), { href: `/clubs/${encodeURIComponent(club.slug)}` });
    link.textContent = club.name;
    const about = Object.assign(document.createElement("span"), { className: "muted" });
    about.textContent = ` · ${membersText(club.members)}${club.mine ? ` · ${t("clubs.owner")}` : ""}`;
    item.append(link, about);
    return item;
  });
  $("clubs-list").replaceChildren(...items);
  $("clubs-empty").hidden = clubs.length > 0;
}

async function init() {
  const join = $("club-join");
  if (join) {
    join.addEventListener("click", async () => {
      join.disabled = true;
      try {
        const club = await social.clubJoin(join.dataset.invite);
        window.location.assign(`/clubs/${encodeURIComponent(club.slug)}?joined=1`);
      } catch (err) {
        join.disabled = false;
        showError(err);
      }
    });
  }
  const form = $("club-create");
  if (form) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      $("clubs-error").hidden = true;
      try {
        const club = await social.clubCreate($("club-name").value);
        window.location.assign(`/clubs/${encodeURIComponent(club.slug)}`);
      } catch (err) {
        showError(err);
      }
    });
    try {
      await list();
    } catch (err) {
      showError(err);
    }
  }
  document.body.dataset.clubsReady = "1";
}

init();
