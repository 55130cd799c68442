#!/usr/bin/env python3
"""Our bridge exports read by bridge programs we did not write (run by scripts/check-bridge-readers).

  fixture PATH    36 seeded deals with endplay's double-dummy tables and par (endplay binds DDS,
                  the C++ solver): tests/fixtures/bridge/endplay_36.json, which the API tests
                  compare our analysis with.
  check BASE      against a running server at BASE (http://127.0.0.1:PORT): a Mitchell and a
                  Howell pairs session and a teams match played through the API on the fixture's
                  deals; their PBN read by endplay and by bridgebots (one game per table,
                  ?games=tables), every board's DD table and par compared with endplay's, and
                  their USEBIO read along the paths national bodies' importers use.
"""
import json
import random
import sys
import time
import urllib.request
import xml.etree.ElementTree as ET

SEATS = "NESW"
STRAINS = ["NT", "S", "H", "D", "C"]
CYCLE_VUL = ["none", "ns", "ew", "both", "ns", "ew", "both", "none",
             "ew", "both", "none", "ns", "both", "none", "ns", "ew"]
SUITS = "SHDC"
RANKS = "AKQJT98765432"


def dealer_of(board):
    return SEATS[(board - 1) % 4]


def vul_of(board):
    return CYCLE_VUL[(board - 1) % 16]


def deal_string(seed):
    rng = random.Random(seed)
    cards = [s + r for s in SUITS for r in RANKS]
    rng.shuffle(cards)
    hands = []
    for k in range(4):
        mine = cards[13 * k: 13 * k + 13]
        hands.append(".".join("".join(r for r in RANKS if s + r in mine) for s in SUITS))
    return "N:" + " ".join(hands)


def endplay_analysis(deal, board, vul=None, dealer=None):
    from endplay.types import Deal, Vul, Player
    from endplay.dds import calc_dd_table, par
    vul = vul or vul_of(board)
    dealer = dealer or dealer_of(board)
    table = calc_dd_table(Deal(deal))
    rows = table.to_list()  # [S, H, D, C, NT][N, E, S, W]
    order = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}
    dd = {seat: {st: rows[order[st]][i] for st in STRAINS} for i, seat in enumerate(SEATS)}
    vuls = {"none": Vul.none, "ns": Vul.ns, "ew": Vul.ew, "both": Vul.both}
    players = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
    p = par(table, vuls[vul], players[dealer])
    denom = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C", "nt": "NT"}
    pen = {"passed": "", "undoubled": "", "doubled": "X", "redoubled": "XX"}
    contracts = []
    for c in p:
        result = "=" if c.result == 0 else ("+%d" % c.result if c.result > 0 else str(c.result))
        contracts.append({"contract": "%d%s%s" % (c.level, denom[c.denom.name], pen[c.penalty.name]),
                          "declarer": c.declarer.name[0].upper(), "result": result})
    return dd, {"score": p.score, "contracts": contracts}


def fixture(path):
    import endplay
    boards = []
    for b in range(1, 37):
        deal = deal_string(20261129 + b)
        dd, par = endplay_analysis(deal, b)
        boards.append({"board": b, "deal": deal, "dealer": dealer_of(b), "vulnerability": vul_of(b),
                       "double_dummy": dd, "par": par})
    doc = {"generated_by": "scripts/bridge-readers.py fixture (endplay %s, which binds DDS)" % endplay.__version__,
           "boards": boards}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("wrote %d boards to %s" % (len(boards), path))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "fixture":
        fixture(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        import bridge_readers_check
        sys.exit(bridge_readers_check.main(sys.argv[2]))
    else:
        print(__doc__)
        sys.exit(2)
