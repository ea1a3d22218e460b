// Who won, in words, from the host's result: each seat's `results` and, in a team game, the
// host's `teams` (each side's name and seats). Never from the count of winners: two winners
// are a team's win, not a draw. Shared by the table (turn line, game-over card) and the
// replay viewer, which pass the names they show.

const join = (names) => names.length < 3 ? names.join(" and ")
  : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;

/** The team's players that share its result, then those who left it ("Pia; Rolf left"). */
function members(team, res, name, kept) {
  const stayed = team.seats.filter((s) => res[s - 1] === kept);
  const gone = team.seats.filter((s) => res[s - 1] !== kept);
  return join(stayed.map(name)) + (gone.length ? `; ${join(gone.map(name))} left` : "");
}

/**
 * "Ann wins", "Yellow wins: Pia and Computer L3", "Yellow wins: Pia; Rolf left", "Draw
 * between Ann and Bob", "Draw between Red (Ann and Bob) and Yellow (Cleo and Dan)"; "" when
 * nobody won or drew (a game everyone left, a game the host closed). `name(seat)` gives a
 * seat's display name; `inline` starts a draw in lower case, for after "Game over — ".
 */
export function resultText(result, name, inline = false) {
  const res = result?.results || [];
  const seats = res.map((_, i) => i + 1);
  const teams = result?.teams || [];
  const draw = inline ? "draw" : "Draw";
  if (teams.length) {
    const won = teams.find((t) => t.seats.some((s) => res[s - 1] === "win"));
    if (won) return `${won.name} wins: ${members(won, res, name, "win")}`;
    if (res.includes("draw")) {
      return `${draw} between ${join(teams.map((t) => `${t.name} (${members(t, res, name, "draw")})`))}`;
    }
    return "";
  }
  const wins = seats.filter((s) => res[s - 1] === "win");
  if (wins.length === 1) return `${name(wins[0])} wins`;
  if (wins.length) return `${join(wins.map(name))} win`;
  const draws = seats.filter((s) => res[s - 1] === "draw");
  return draws.length ? `${draw} between ${join(draws.map(name))}` : "";
}
