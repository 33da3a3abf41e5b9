// ISO weeks, as the API names a club's week ("2026-W49"): Monday to Sunday, the week's Thursday
// decides its year (so 2027-01-01 is in 2026-W53).

/** The ISO week of a date `YYYY-MM-DD`. */
export function isoWeek(iso) {
  const day = new Date(`${iso}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7) + 3); // the week's Thursday
  const year = day.getUTCFullYear();
  const week = Math.floor((day - Date.UTC(year, 0, 1)) / 86400000 / 7) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}
