// REST calls to the host and what this phone remembers (name, seat tokens) in localStorage.

const KEY = "cornerclaim.v1";

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}
function save(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    /* private mode: remember nothing */
  }
}

export const memory = {
  get name() {
    return load().name || "";
  },
  set name(value) {
    const d = load();
    d.name = value;
    save(d);
  },
  /** {seat: token} this phone holds for a game. */
  tokens(gameId) {
    return { ...((load().games || {})[gameId]?.seats || {}) };
  },
  hostToken(gameId) {
    return (load().games || {})[gameId]?.host || null;
  },
  remember(gameId, { seats = {}, host = null } = {}) {
    const d = load();
    d.games = d.games || {};
    const g = (d.games[gameId] = d.games[gameId] || { seats: {} });
    Object.assign(g.seats, seats);
    if (host) g.host = host;
    g.at = Date.now();
    // keep the 30 most recent games only
    const ids = Object.keys(d.games).sort((a, b) => (d.games[b].at || 0) - (d.games[a].at || 0));
    for (const id of ids.slice(30)) delete d.games[id];
    save(d);
  },
  forgetSeat(gameId, seat) {
    const d = load();
    if (d.games?.[gameId]) delete d.games[gameId].seats[seat];
    save(d);
  },
};

/** An error the host sent: its code and message as the host wrote them. */
export class HostError extends Error {
  constructor(status, body) {
    const e = body?.error || {};
    super(e.message || `The host answered ${status}`);
    this.status = status;
    this.code = e.code || "http_" + status;
    this.details = e.details || {};
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new HostError(0, { error: { code: "offline", message: "Cannot reach the host." } });
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new HostError(res.status, data);
  return data;
}

/** GETs of which only the newest counts: `get(path)` resolves to the host's answer, or to
 *  null once a later `get` has begun (another pick made, a poll overtaken), and throws the
 *  host's error only for the newest, so a page never draws an earlier answer over a later
 *  one. `answered()` runs on every answer, counted or not (a page's signal for tests). */
export function newestOnly(answered = () => {}) {
  let begun = 0;
  return async (path) => {
    const mine = ++begun;
    let data;
    let error = null;
    try {
      data = await api("GET", path);
    } catch (err) {
      error = err;
    }
    answered();
    if (mine !== begun) return null;
    if (error) throw error;
    return data;
  };
}

/** Seat tokens from a create-game answer, whatever shape the host gives them in. */
export function seatTokens(answer) {
  const raw = answer?.tokens || answer?.seat_tokens || {};
  const out = {};
  if (Array.isArray(raw)) for (const t of raw) out[t.seat] = t.token;
  else for (const [seat, t] of Object.entries(raw)) out[seat] = typeof t === "string" ? t : t.token;
  return out;
}
