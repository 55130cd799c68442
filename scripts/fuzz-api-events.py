"""The live events scripts/fuzz-api fuzzes with, one of every kind, each in a state where its
operations do real work; writes one schemathesis config per run and prints the runs.

Usage: fuzz-api-events.py BASE OUT_DIR. Prints one line per run, "name mode config", where
mode is `all` (every operation, the first run only), `event` (the event's own operations) or
`scorer` (the writes a scorer token may make, with a scorer token instead of the admin's).
Names carry CSV, HTML and TRF/PBN specials and non-ASCII letters, so the exports the fuzzer
fetches write them escaped. Also writes OUT_DIR/events.json (each event's id and admin
token) for scripts/fuzz-api-import.py.
"""

import json
import sys
import urllib.error
import urllib.request

from fuzz_api_hooks import RULES

BASE, OUT = sys.argv[1], sys.argv[2]

# Names that reach every export: quotes and commas (CSV), markup (HTML, XML), a formula cell,
# accents and a non-Latin script (TRF, PBN), an apostrophe.
NAMES = ['Ødegård, "Sasha"', "<b>Bold</b> & Co", "=SUM(A1:A9)", "Zhōu 周", "O'Brien"]


def call(method, path, body=None, token=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req) as r:
            text = r.read()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as e:
        sys.exit(f"fuzz-api: setting up: {method} {path}: {e.code} {e.read().decode()[:400]}")


def get(path):
    with urllib.request.urlopen(BASE + path) as r:
        return json.loads(r.read())


def etag(eid):
    with urllib.request.urlopen(BASE + f"/api/v1/events/{eid}") as r:
        return r.headers["ETag"]


def name(prefix, i):
    return NAMES[i] if i < len(NAMES) else f"{prefix} {i + 1}"


class Event:
    def __init__(self, title, game, fmt, settings=None):
        body = {"name": title, "game": game, "format": fmt}
        if settings is not None:
            body["settings"] = settings
        e = call("POST", "/api/v1/events", body)
        self.id, self.token = e["id"], e["admin_token"]
        self.path = f"/api/v1/events/{self.id}"
        self.params = {"event_id": self.id, "round": 1}

    def post(self, tail, body=None, headers=None):
        return call("POST", self.path + tail, body, self.token, headers)

    def players(self, count, prefix):
        people = [{"name": name(prefix, i), "rating": 2200 - 25 * i, "federation": "NOR"}
                  for i in range(count)]
        added = self.post("/participants/bulk", {"participants": people})
        self.params["participant_id"] = added["items"][0]["id"]

    def teams(self, count, size):
        for k in range(count):
            members = [{"name": name(f"Team {k + 1} player", (k * size + i) % 9),
                        "rating": 2000 - 10 * k - i} for i in range(size)]
            team = self.post("/teams", {"name": name("Team", k), "members": members})
            self.params.setdefault("team_id", team["id"])
        self.params.setdefault("participant_id", team["members"][0]["participant"]["id"])

    def lots(self, method="rating"):
        body = {"method": method, "seed": 1} if method == "random" else {"method": method}
        self.post("/lots", body, {"If-Match": etag(self.id)})

    def scorer_tokens(self):
        # One for the fuzzer to revoke (token_id), one for the scorer's own run.
        self.params["token_id"] = self.post("/tokens", {"label": "revoked by the fuzzer"})["id"]
        self.scorer = self.post("/tokens", {"label": "fuzz scorer"})["token"]


RESULTS = ["1-0", "1/2-1/2", "0-1", "+/-"]


def chess_results(e, number):
    """Enters a result for every game of round `number`."""
    games = get(f"{e.path}/rounds/{number}")["games"]
    rows = [{"round": number, "board": g["board"], "result": RESULTS[i % len(RESULTS)]}
            for i, g in enumerate(games) if g.get("black")]
    e.post("/results", {"results": rows})


def chess_round(e, results=False):
    """Pairs and publishes the next Swiss round, its results entered when `results`."""
    r = e.post("/rounds")
    e.post(f"/rounds/{r['number']}/publish")
    if results:
        chess_results(e, r["number"])


def board_results(e, tables):
    """Enters a result on every board of `tables`: (round, table, boards) each."""
    contracts = [("4S", "N", 10), ("3NT", "S", 8), ("2HX", "E", 8), ("6D", "W", 12), ("1C", "N", 7)]
    rows = []
    for n, table, boards in tables:
        for b in boards:
            c, d, tricks = contracts[len(rows) % len(contracts)]
            rows.append({"round": n, "table": table, "board": b, "contract": c, "declarer": d,
                         "tricks": tricks})
    e.post("/board-results", {"results": rows})


def movement_tables(e, rounds):
    """The pair movement's tables in its first `rounds` rounds."""
    return [(n, t["table"], t["boards"]) for n in range(1, rounds + 1)
            for t in get(f"{e.path}/movement/rounds/{n}")["tables"]]


def draw_tables(e, draw):
    """The tables of a bridge Swiss draw; the first match's boards at each of its tables."""
    return [(draw["round"], t, m["boards"]) for m in draw["matches"] for t in m["tables"]]


runs = []  # (name, mode, event, token)

rr = Event("Round robin", "chess", "round_robin")
rr.players(6, "Round robin")
rr.lots("random")
chess_results(rr, 1)
rr.scorer_tokens()
runs.append(("round_robin", "all", rr, rr.token))

swiss = Event("Swiss", "chess", "swiss", {"rounds": 5})
swiss.players(8, "Swiss")
swiss.scorer_tokens()
swiss.params["bye_id"] = swiss.post(
    "/byes", {"participant_id": swiss.params["participant_id"] + 7, "round": 3, "points": 0.5})["id"]
chess_round(swiss)
runs.append(("swiss", "event", swiss, swiss.token))

# The FIDE Dutch system with Baku acceleration: round 1 played, round 2 a draft the fuzzer
# swaps, forces, re-pairs and publishes.
dutch = Event("Dutch", "chess", "swiss",
              {"system": "fide_dutch", "acceleration": "baku", "rounds": 9, "first_colour": "white"})
dutch.players(12, "Dutch")
dutch.scorer_tokens()
chess_round(dutch, results=True)
dutch.post("/rounds")
dutch.params["round"] = 2
runs.append(("dutch_baku", "event", dutch, dutch.token))
runs.append(("dutch_scorer", "scorer", dutch, dutch.scorer))

hilton = Event("Hilton", "chess", "hilton", {"boards": 4})
hilton.teams(6, 4)
hilton.lots()
chess_results(hilton, 1)
hilton.scorer_tokens()
runs.append(("chess_teams", "event", hilton, hilton.token))

pairs = Event("Pairs", "bridge", "pairs")
pairs.players(14, "Pairs")
pairs.scorer_tokens()
call("PUT", pairs.path + "/movement",
     {"kind": "mitchell", "options": {"tables": 7, "boards_per_round": 3}}, pairs.token)
pairs.lots()
board_results(pairs, movement_tables(pairs, 3))
pairs.params.update(pair=1, board=1)
runs.append(("pairs", "event", pairs, pairs.token))

teams = Event("Teams", "bridge", "teams", {"kind": "round_robin", "boards_per_match": 4})
teams.teams(6, 4)
teams.lots()
teams.scorer_tokens()
board_results(teams, [(1, t["table"], t["boards"])
                      for t in get(f"{teams.path}/team-movement")["rounds"][0]["tables"][:4]])
one = get(f"{teams.path}/team-movement")["matches"][-1]
teams.post("/matches", {"matches": [{"round": one["halves"][0]["round"], "home": one["home"],
                                     "away": one["away"], "imps_home": 31, "imps_away": 7}]})
teams.params.update(pair=1, board=1)
runs.append(("bridge_teams", "event", teams, teams.token))
runs.append(("bridge_teams_scorer", "scorer", teams, teams.scorer))

spairs = Event("Swiss pairs", "bridge", "swiss_pairs", {"rounds": 4, "boards_per_match": 3})
spairs.players(9, "Swiss pairs")
spairs.lots()
spairs.scorer_tokens()
draw = spairs.post("/rounds", {})
board_results(spairs, draw_tables(spairs, draw)[:-1])
spairs.params.update(pair=1, board=1)
runs.append(("swiss_pairs", "event", spairs, spairs.token))

steams = Event("Swiss teams", "bridge", "swiss_teams", {"rounds": 5, "odd": "triangle", "boards_per_match": 4})
steams.teams(7, 4)
steams.lots()
steams.scorer_tokens()
draw = steams.post("/rounds", {})
board_results(steams, draw_tables(steams, draw)[:2])
m = draw["matches"][-1]
steams.post("/matches", {"matches": [{"round": 1, "home": m["home"], "away": m["away"],
                                      "vp_home": 12.5, "vp_away": 7.5}]})
steams.params.update(pair=1, board=1)
runs.append(("swiss_teams", "event", steams, steams.token))

# The events for the import fuzzer (scripts/fuzz-api-import.py): each exported and imported.
with open(f"{OUT}/events.json", "w") as f:
    kinds = {}
    for run, mode, e, token in runs:
        kinds.setdefault(e.id, {"name": run, "id": e.id, "token": e.token})
    json.dump(list(kinds.values()), f)

for run, mode, e, token in runs:
    config = f"{OUT}/{run}.toml"
    with open(config, "w") as f:
        f.write(f'headers = {{ Authorization = "Bearer {token}" }}\n\n')
        # A valid request may meet a 412: the If-Match header names a version of the event,
        # which the state decides, not the schema (409 and 404 are the defaults' state answers).
        f.write('[checks.positive_data_acceptance]\nexpected-statuses = '
                '["2xx", "3xx", "401", "403", "404", "409", "412", "429", "5xx"]\n\n')
        f.write('[parameters]\n')
        for k, v in e.params.items():
            f.write(f'"path.{k}" = {v}\n')
        # schemathesis's coverage phase takes every property of an all-optional PATCH body
        # as required ("Missing required property: name" for a body without name, which the
        # document does not require); the fuzzing phase still tests these two operations with
        # every check.
        f.write('\n[[operations]]\ninclude-operation-id = "update_participant"\n'
                "phases.coverage.enabled = false\n")
        # The operations whose valid requests may meet a rule no schema can state (between
        # fields, with the event's state, inside a file): a 422 is allowed to
        # positive_data_acceptance there, and the check refusals_name_a_rule of
        # scripts/fuzz_api_hooks.py lets it pass only for those rules.
        for operation in sorted(RULES):
            f.write(f'\n[[operations]]\ninclude-operation-id = "{operation}"\n'
                    "checks.positive_data_acceptance.expected-statuses = "
                    '["2xx", "3xx", "401", "403", "404", "409", "412", "422", "429", "5xx"]\n')
            if operation == "update_event":
                f.write("phases.coverage.enabled = false\n")
    print(run, mode, config)
