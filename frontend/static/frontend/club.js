// A club's page (/clubs/<slug>): today's board and the week's standing of its members, its
// members, and for its owner the invite link and what runs the club. Over GET clubs/{slug},
// clubs/{slug}/daily/{date}, clubs/{slug}/week/{week} and the owner's writes.
import { t, formatDate, formatNumber, formatTime } from "./i18n.js";
import "./strings.js";
import "./social_strings.js";
import { currentUser, social } from "./api.js";
import { initNav, playerName } from "./nav.js";
import { isoWeek } from "./weeks.js";
import { dayBoardRow } from "./day_board.js";

const $ = (id) => document.getElementById(id);
const slug = $("club").dataset.slug;
let club = null;
initNav();

function row(...cells) {
  const line = document.createElement("tr");
  for (const value of cells) {
    const cell = document.createElement("td");
    if (value instanceof Node) cell.append(value);
    else cell.textContent = String(value);
    line.append(cell);
  }
  return line;
}

function showError(err) {
  $("club-error").textContent = err.detail || t("error.generic");
  $("club-error").hidden = false;
}

function mark(line, mine) {
  if (mine) line.classList.add("mine");
  return line;
}

async function boards() {
  const today = new Date().toISOString().slice(0, 10);
  const [day, week] = await Promise.all([social.clubDay(slug, today), social.clubWeek(slug, isoWeek(today))]);
  $("club-day-body").replaceChildren(...day.entries.map(dayBoardRow));
  $("club-day").hidden = !day.entries.length;
  $("club-legend").hidden = !day.entries.length;
  $("club-day-empty").hidden = Boolean(day.entries.length);
  $("club-week-body").replaceChildren(
    ...week.entries.map((e) =>
      mark(row(e.rank, playerName(e.username), formatNumber(e.points), formatNumber(e.days), formatTime(e.time_ms)), e.me),
    ),
  );
  $("club-week").hidden = !week.entries.length;
  $("club-week-empty").hidden = Boolean(week.entries.length);
}

function memberButton(text, label, onClick) {
  const button = Object.assign(document.createElement("button"), { type: "button", className: "button small ghost-dark" });
  button.textContent = text;
  button.setAttribute("aria-label", label);
  button.addEventListener("click", onClick);
  return button;
}

function show(data) {
  club = data;
  $("club-name").textContent = data.name;
  document.title = `${data.name} – Yukon Solitaire`;
  const members = data.members === 1 ? t("clubs.members.one") : t("clubs.members.other", { n: formatNumber(data.members) });
  $("club-sub").textContent = t("club.sub", { owner: data.owner, members });
  $("club-members").replaceChildren(
    ...data.member_list.map((member) => {
      const item = document.createElement("li");
      item.append(playerName(member.username));
      if (member.username === data.owner) {
        const owner = Object.assign(document.createElement("span"), { className: "muted" });
        owner.textContent = t("club.owner.mark");
        item.append(owner);
      }
      if (data.mine && member.username !== data.owner) {
        item.append(
          " ",
          memberButton(t("club.handover"), t("club.handover.label", { name: member.username }), async () => {
            if (!window.confirm(t("club.handover.confirm", { name: member.username }))) return;
            await act(() => social.clubChange(slug, { owner: member.username }));
          }),
          " ",
          memberButton(t("club.remove"), t("club.remove.label", { name: member.username }), async () => {
            if (!window.confirm(t("club.remove.confirm", { name: member.username }))) return;
            await act(() => social.memberRemove(slug, member.username));
          }),
        );
      }
      return item;
    }),
  );
  $("club-removed").replaceChildren(
    ...data.removed.map((removed) => {
      const item = document.createElement("li");
      item.append(
        playerName(removed.username),
        " ",
        memberButton(t("club.removed.lift"), t("club.removed.lift.label", { name: removed.username }), async () => {
          await act(() => social.removalLift(slug, removed.username));
        }),
      );
      return item;
    }),
  );
  $("club-removed-part").hidden = !data.removed.length;
  $("club-invite-section").hidden = !data.invite;
  $("club-owner-section").hidden = !data.mine;
  if (data.invite) {
    $("club-invite").value = new URL(`/clubs/join/${data.invite}`, window.location.origin).href;
    $("club-invite-help").textContent = t("club.invite.help", { date: formatDate(data.invite_expires_at.slice(0, 10)) });
  }
}

async function act(write) {
  $("club-error").hidden = true;
  try {
    await write();
    show(await social.club(slug));
  } catch (err) {
    showError(err);
  }
}

function bind() {
  // The phone's share sheet where there is one (Web Share), beside copying the link.
  const share = $("club-invite-share");
  share.hidden = typeof navigator.share !== "function";
  share.addEventListener("click", async () => {
    try {
      await navigator.share({ title: club.name, text: t("club.invite.text", { name: club.name }), url: $("club-invite").value });
    } catch (err) {
      /* dismissed: nothing to say */
    }
  });
  $("club-invite-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("club-invite").value);
      $("club-note").textContent = t("club.invite.copied");
      $("club-note").hidden = false;
    } catch (err) {
      $("club-invite").select();
    }
  });
  $("club-invite-revoke").addEventListener("click", () => act(() => social.inviteRevoke(slug)));
  $("club-rename").addEventListener("submit", (event) => {
    event.preventDefault();
    act(() => social.clubChange(slug, { name: $("club-rename-name").value }));
  });
  $("club-delete").addEventListener("click", async () => {
    if (!window.confirm(t("club.delete.confirm", { name: club.name }))) return;
    try {
      await social.clubDelete(slug);
      window.location.assign("/clubs");
    } catch (err) {
      showError(err);
    }
  });
  $("club-leave").addEventListener("click", async () => {
    if (!window.confirm(t("club.leave.confirm", { name: club.name }))) return;
    try {
      const user = await currentUser();
      await social.memberRemove(slug, user ? user.username : "");
      window.location.assign("/clubs");
    } catch (err) {
      showError(err);
    }
  });
}

async function init() {
  try {
    show(await social.club(slug));
    bind();
    $("club-body").hidden = false;
    if (new URLSearchParams(window.location.search).has("joined")) {
      $("club-note").textContent = t("club.joined", { name: club.name });
      $("club-note").hidden = false;
    }
    await boards();
  } catch (err) {
    $("club-note").textContent =
      err.status === 404 ? t("club.notfound") : err.status === 401 || err.status === 403 ? t("club.login") : err.detail || t("error.generic");
    $("club-note").hidden = false;
  }
  document.body.dataset.clubReady = "1";
}

init();
