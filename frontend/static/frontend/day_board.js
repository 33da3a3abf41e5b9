// One line of a day's board among some players (the friends' tab of the daily page, a club's day;
// the markup is _day_board.html): the place among them, the player (✓ when the server replayed
// the win), time, moves, and the place on everyone's board ("#3" exact, "≈ 4" while the day is open).
import { t, formatNumber, formatTime } from "./i18n.js";
import "./social_strings.js";
import { playerName, verifiedMark } from "./nav.js";

export function dayBoardRow(entry) {
  const row = document.createElement("tr");
  if (entry.me) row.classList.add("mine");
  const cell = (text) => Object.assign(document.createElement("td"), { textContent: String(text) });
  const player = document.createElement("th");
  player.scope = "row";
  player.append(playerName(entry.username));
  if (entry.verified) player.append(" ", verifiedMark());
  const overall = entry.board_rank_exact ? `#${formatNumber(entry.board_rank)}` : t("club.place.about", { rank: formatNumber(entry.board_rank) });
  row.append(cell(entry.rank), player, cell(formatTime(entry.time_ms)), cell(formatNumber(entry.moves)), cell(overall));
  return row;
}
