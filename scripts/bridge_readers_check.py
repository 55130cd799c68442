"""The `check` half of scripts/bridge-readers.py: see its doc. Exits 1 on any mismatch."""
import json
import os
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))

FIXTURE = os.path.join(HERE, "..", "tests", "fixtures", "bridge", "endplay_36.json")
failures = []


def fail(msg):
    failures.append(msg)
    print("MISMATCH:", msg)


def call(base, method, path, body=None, token=None, ctype="application/json"):
    data = None
    if body is not None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", ctype)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req) as r:
            text = r.read().decode()
            return r.status, text
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def ok(base, method, path, body=None, token=None, ctype="application/json"):
    status, text = call(base, method, path, body, token, ctype)
    if status >= 300:
        raise SystemExit("%s %s: %d %s" % (method, path, status, text))
    return json.loads(text) if text.startswith(("{", "[")) else text


def tables_of(rounds):
    out = []
    for r in rounds:
        for t in r["tables"]:
            if t.get("ns") is None or t.get("ew") is None:
                continue
            out.append((r["round"], t["table"], t["boards"]))
    return out


def pbn_of(fix, boards):
    names = {"none": "None", "ns": "NS", "ew": "EW", "both": "All"}
    out = "% PBN 2.1\n"
    for b in boards:
        x = fix[b]
        out += '\n[Board "%d"]\n[Dealer "%s"]\n[Vulnerable "%s"]\n[Deal "%s"]\n' % (
            b, x["dealer"], names[x["vulnerability"]], x["deal"])
    return out


def play(base, event, token, fix, tables):
    rows = []
    for k, (rnd, table, boards) in enumerate(tables):
        for j, b in enumerate(boards):
            x = fix[b]
            if (k, j) == (0, 0):
                rows.append({"round": rnd, "table": table, "board": b, "adjusted": "A+/A-"})
            elif (k, j) == (1, 0):
                rows.append({"round": rnd, "table": table, "board": b, "contract": "PASS"})
            else:
                east = x["deal"][2:].split(" ")[1].split(".")
                s = next(i for i, c in enumerate(east) if c)
                rows.append({"round": rnd, "table": table, "board": b, "contract": "3NT",
                             "declarer": "N", "tricks": x["double_dummy"]["N"]["NT"],
                             "lead": "SHDC"[s] + east[s][0]})
    ok(base, "POST", "/api/v1/events/%d/board-results" % event, {"results": rows}, token)
    return rows


def event(base, fmt, settings):
    v = ok(base, "POST", "/api/v1/events", {"name": "Readers' %s & <co>" % fmt, "game": "bridge",
                                           "format": fmt, "settings": settings, "start_date": "2026-11-29"})
    return v["id"], v["admin_token"]


def wait(base, event_id):
    deadline = time.time() + 600
    while True:
        d = ok(base, "GET", "/api/v1/events/%d/deals" % event_id)
        if d["pending"] == 0:
            return d
        if time.time() > deadline:
            raise SystemExit("the analysis did not finish")
        time.sleep(0.5)


def check_pbn(base, event_id, fix, boards, rows, label):
    from endplay.parsers import pbn as endplay_pbn
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal, Vul, Player
    text = ok(base, "GET", "/api/v1/events/%d/pbn" % event_id)
    games = endplay_pbn.loads(text)
    seen = 0
    for g in games:
        b = g.board_num
        if b not in boards:
            continue
        seen += 1
        if g.deal.to_pbn() != fix[b]["deal"]:
            fail("%s board %d: endplay reads deal %s" % (label, b, g.deal.to_pbn()))
        if g.contract is not None:
            fail("%s board %d: endplay reads a contract %s (a passed-out board?)" % (label, b, g.contract))
        ours = g.info.get("DoubleDummyTricks")
        table = calc_dd_table(g.deal)
        rows_ = table.to_list()  # [S H D C NT][N E S W]
        order = {"NT": 4, "S": 0, "H": 1, "D": 2, "C": 3}
        theirs = "".join("%x" % rows_[order[st]][i] for i in (0, 2, 1, 3) for st in ("NT", "S", "H", "D", "C"))
        if ours != theirs:
            fail("%s board %d: DoubleDummyTricks %s, endplay %s" % (label, b, ours, theirs))
        vul = {0: Vul.none, 1: Vul.both, 2: Vul.ns, 3: Vul.ew}[int(g.vul)]
        p = par(table, vul, Player(int(g.dealer)))
        want = "NS %d" % p.score if p.score >= 0 else "EW %d" % -p.score
        if g.info.get("OptimumScore") != want:
            fail("%s board %d: OptimumScore %s, endplay %s" % (label, b, g.info.get("OptimumScore"), want))
        opt = g.info.get("OptimumResultTable")
        if not opt or len(opt["rows"]) != 20:
            fail("%s board %d: the optimum result table has %s rows" % (label, b, opt and len(opt["rows"])))
    if seen != len(boards):
        fail("%s: endplay read %d of %d boards" % (label, seen, len(boards)))
    # one game per table, as bridgebots reads a database of played boards
    from bridgebots.pbn import parse_pbn
    import logging
    logging.disable(logging.CRITICAL)
    tables_text = ok(base, "GET", "/api/v1/events/%d/pbn?games=tables" % event_id)
    with tempfile.NamedTemporaryFile("w", suffix=".pbn", delete=False, newline="") as f:
        f.write(tables_text.replace("\r\n", "\n"))
    records = parse_pbn(Path(f.name))
    os.unlink(f.name)
    played = [r for r in rows if r.get("contract") not in (None, "PASS")]
    got = sum(len(d.board_records) for d in records)
    if got != len(played):
        fail("%s: bridgebots read %d played tables of %d" % (label, got, len(played)))
    for d in records:
        for r in d.board_records:
            if str(r.contract) not in ("3NT", "3N") and "3" not in str(r.contract):
                fail("%s: bridgebots reads contract %s" % (label, r.contract))
    print("%s: PBN read by endplay (%d boards, DD and par equal) and bridgebots (%d tables)" % (label, seen, got))


def check_usebio(base, event_id, rows, boards, label, teams=False):
    text = ok(base, "GET", "/api/v1/events/%d/usebio?club_name=Readers%%27%%20Club&club_id=99" % event_id)
    root = ET.fromstring(text.encode())
    entries = root.findall("EVENT/PARTICIPANTS/" + ("TEAM" if teams else "PAIR"))
    players = [p for e in entries for p in e.findall("PLAYER")]
    lines = root.findall("EVENT/BOARD/TRAVELLER_LINE")
    hands = root.findall("HANDSET/BOARD")
    if len(lines) != len(rows):
        fail("%s: USEBIO has %d traveller lines of %d" % (label, len(lines), len(rows)))
    if len(hands) != len(boards):
        fail("%s: USEBIO has %d hands of %d boards" % (label, len(hands), len(boards)))
    if not entries or any(not e.findtext("PLACE") for e in entries):
        fail("%s: USEBIO entries without places" % label)
    if any(not p.findtext("PLAYER_NAME") for p in players):
        fail("%s: a PLAYER without a name" % label)
    ids = [p.findtext("NATIONAL_ID_NUMBER") for p in players]
    if None in ids:
        fail("%s: %d of %d players without NATIONAL_ID_NUMBER" % (label, ids.count(None), len(ids)))
    print("%s: USEBIO parsed; %d %s, %d players with national ids, %d traveller lines, %d hands"
          % (label, len(entries), "teams" if teams else "pairs", len(players), len(lines), len(hands)))


def pairs_session(base, fix, movement, pairs, label):
    eid, token = event(base, "pairs", {})
    people = [{"name": "Pair %d" % i, "players": [
        {"name": "Ann O'Hara %d" % i, "national_id": "EBU%04d1" % i},
        {"name": "Bob <Smith> & Co %d" % i, "national_id": "EBU%04d2" % i}]} for i in range(1, pairs + 1)]
    ok(base, "POST", "/api/v1/events/%d/participants/bulk" % eid, {"participants": people}, token)
    ok(base, "PUT", "/api/v1/events/%d/movement" % eid, movement, token)
    ok(base, "POST", "/api/v1/events/%d/lots" % eid, {"method": "random", "seed": 5}, token)
    m = ok(base, "GET", "/api/v1/events/%d/movement" % eid)
    tables = tables_of(m["movement"]["rounds"])
    boards = sorted({b for t in tables for b in t[2]})
    ok(base, "PUT", "/api/v1/events/%d/deals" % eid, pbn_of(fix, boards), token, "text/plain")
    rows = play(base, eid, token, fix, tables)
    wait(base, eid)
    check_pbn(base, eid, fix, boards, rows, label)
    check_usebio(base, eid, rows, boards, label)


def teams_event(base, fix):
    eid, token = event(base, "teams", {"kind": "round_robin", "boards_per_match": 3})
    for k in range(1, 5):
        members = [{"name": "Team %d player %d" % (k, i), "national_id": "T%d%d" % (k, i)} for i in range(1, 5)]
        ok(base, "POST", "/api/v1/events/%d/teams" % eid, {"name": "Team %d" % k, "members": members}, token)
    ok(base, "POST", "/api/v1/events/%d/lots" % eid, {"method": "rating"}, token)
    m = ok(base, "GET", "/api/v1/events/%d/team-movement" % eid)
    tables = tables_of(m["rounds"])
    boards = sorted({b for t in tables for b in t[2]})
    ok(base, "PUT", "/api/v1/events/%d/deals" % eid, pbn_of(fix, boards), token, "text/plain")
    rows = play(base, eid, token, fix, tables)
    wait(base, eid)
    check_pbn(base, eid, fix, boards, rows, "teams")
    check_usebio(base, eid, rows, boards, "teams", teams=True)


def main(base):
    with open(FIXTURE) as f:
        fix = {b["board"]: b for b in json.load(f)["boards"]}
    pairs_session(base, fix, {"kind": "mitchell", "options": {"tables": 5, "boards_per_round": 2}}, 10, "mitchell")
    pairs_session(base, fix, {"kind": "howell", "options": {"tables": 3, "boards_per_round": 2}}, 6, "howell")
    teams_event(base, fix)
    # the stateless analysis of the 36 deals against endplay's
    t0 = time.time()
    ans = ok(base, "POST", "/api/v1/bridge/analyse",
             {"deals": [{"deal": fix[b]["deal"], "board": b} for b in range(1, 37)]})
    took = time.time() - t0
    for k, r in enumerate(ans["results"]):
        b = k + 1
        if r["double_dummy"] != fix[b]["double_dummy"] or r["par"]["score"] != fix[b]["par"]["score"]:
            fail("analyse board %d differs from endplay" % b)
    print("analyse: 36 deals in %.2f s, tables and par scores equal to endplay's" % took)
    print("%d passed, %d failed" % (0 if failures else 1, len(failures)))
    return 1 if failures else 0
