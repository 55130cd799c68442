"""schemathesis hooks of scripts/fuzz-api: what a valid request may still be refused for.

Every bound on a single value is in the document (minimum, maximum, lengths, patterns,
enums), so positive_data_acceptance refuses a 422 for any request the schema allows, except
on the operations of RULES: their bodies name things of the event (a board of a round, the
pair at a table, a round still to come) or hold a file (TRF, PBN, an event document), or two
of their fields must agree (a result and its contract, an end date and a start date), which
no JSON Schema can say. The descriptions in the document say them in words; the server
refuses each with a 422 naming the field.

For those operations the run allows a 422 to positive_data_acceptance (fuzz-api-events.py
writes them into each run's config from RULES), and the check `refusals_name_a_rule` below
makes that allowance narrow: a valid request may be refused with 422 only when every error
is one of the operation's rules (or, for an event document, about one of its rows). A bound
missing from the schema still fails the run. Each rule here was met by the fuzzer; a new
one belongs here only when no schema could state it.
"""

import json
import re

import schemathesis

# The rules between the settings of one format.
SETTINGS_RULES = [r"^avoid_first_n needs the number of rounds", r"^must not be above high_limit",
                  r"^names the same participant twice", r"^the Baku acceleration needs system fide_dutch",
                  r"^applies to matchpoint scoring only",
                  r"^a triangle plays two half-matches: give an even number of boards",
                  # VPs in hundredths: a `multipleOf: 0.01` is no exact test in binary
                  # floating point (0.07 / 0.01 is not 7), so the schema gives the range only
                  r"VPs: a bye gives 0 to 20 VPs, in hundredths"]

# What each kind of movement serves: sizes and options go with the kind (and with each other).
MOVEMENT_RULES = [r"cannot be run on \d+ tables", r"^the option \w+ does not apply to",
                  r"for \d+ tables \(supported:", r"sets of boards; \d+ are available",
                  r"^rover_from_round needs rover=true",
                  r"brings EW pairs back to boards they played",
                  r"this movement has \d+ rounds when complete",
                  r"^half_table_at needs half_table=ns or half_table=ew"]

# A tournament's groups: each name and each section once, one field or groups.
GROUP_RULES = [r"names another group already", r"is in another group already",
               r"the whole tournament is one field already"]

# Per operation id: the messages (regular expressions) of its rules between fields, with the
# event's state, or inside a file.
RULES = {
    # board or vulnerability (one of them, agreeing); tricks or result (one of them); a
    # declarer for a contract; the result must fit the contract
    "board_score": [r"^give the board or the vulnerability", r"^board \d+ is \w+, not \w+",
                    r"^is required \(N, E, S or W\)", r"^give tricks or result, not both",
                    r"^give tricks \(0–13\) or result", r"needs \d+ tricks, and a deal has 13",
                    r"the board was passed out", r"fits a passed-out board only"],
    # the number of scores and `expected`
    "board_matchpoints": [r"^must be at least the number of scores"],
    # the sizes and options each kind of movement serves (a path and a query parameter)
    "get_movement": MOVEMENT_RULES,
    "get_team_movement": [r"teams cannot be served by this movement",
                          r"^this movement cannot be curtailed", r"teams cannot play \d+ matches"],
    # the settings of the event's format (after the merge), dates in order
    "create_event": [r"^must not be before start_date"] + SETTINGS_RULES,
    "create_section": [r"^must not be before start_date"] + SETTINGS_RULES,
    # a tournament's groups name its sections (none yet when it is created), each once
    "create_tournament": [r"^must not be before start_date", r"^a new tournament has no sections yet"]
    + GROUP_RULES,
    "update_tournament": [r"^must not be before start_date", r"is not a section of this tournament",
                          r"only pairs sections are scored across the field"] + GROUP_RULES,
    "import_tournament": [r"^must not be before start_date", r"the document needs a newer server", r"^a new tournament has no sections yet",
                          r"is not a section of this tournament"] + GROUP_RULES,
    "update_event": [r"^must not be before start_date", r"^unknown field `\w+`, expected",
                     r"^format \w+ has no settings", r"^unknown format \"\w+\" for (chess|bridge)",
                     # a patch's settings are one of any format's; the event has one format
                     r"scoring is for Swiss pairs$", r"^a triangle is for Swiss teams",
                     r"^Swiss pairs matches are won in IMPs",
                     r"^unknown setting; format \w+ knows: "]
    + SETTINGS_RULES,
    # a Mitchell's pairs are NS or EW: the direction goes with the pair number
    "get_scorecard": [r"is required under Mitchell numbering"],
    # files and documents: their content
    "import_trf": [r"^no 001 player line",
                   # the format asked or read from the file, and the Swiss-only parameters
                   r"^a Swiss setting: the file becomes a", r"met \d+ times: not a"]
    + SETTINGS_RULES,
    # a PBN file: its lines
    "put_deals": [r"^the file holds no \[Deal\]", r"^line \d+: "],
    # one deal or a list, not both; a deal's cards (13 a hand, 52 distinct) are its content
    "analyse_deals": [r"or a list \(deals\), not both", r"^give a deal \(a PBN deal string"],
    "import_event": [r"^must hold exactly one event", r"the document needs a newer server"],
    # the history of a section sent whole: start numbers named, players left to pair
    "pair_swiss": [r"^must not be above high_limit", r"^must not be below low_limit",
                   r"^no 001 player line", r"^unknown start number", r"^fewer than two players to pair",
                   r"^start number \d+ appears twice",
                   # each game recorded by both players, alike; the round follows the history
                   r"^a game needs an opponent", r"^a bye has no (opponent|colour)",
                   r"^a played game needs a colour", r"^a player cannot play himself",
                   r"has no record of round \d+", r"is paired with \d+ in round \d+ but",
                   r"contradict each other", r"both had the same colour in round",
                   r"^two byes for one player", r"cannot be paired after \d+ completed rounds",
                   r"^the section has only \d+ rounds", r"^a section has at most \d+ rounds"],
    # ids named once, never as one's own opponent
    "draw_bridge_swiss": [r"cannot have met itself", r"^id \d+ is also contestants\[\d+\]",
                          r"needs the seed it is drawn from"],
    # what the event holds: its rounds, boards, tables, pairs, participants, matches
    "submit_results": [r"has no board \d+", r"is a draft; publish it before entering results",
                       # a CSV body: its lines
                       r"has \d+ cells; expected round,board,result or round,white,black,result",
                       r"^holds no result line", r"is not a number", r"contradicts .* for the same game",
                       r"has no game", r"is required$",
                       r"^name the game by game_id, or by round and board",
                       r"^this key was used for a different request"],
    "submit_board_results": [r"does not sit (NS|EW) at table \d+ in round \d+",
                             r"table \d+ does not play board \d+ in round \d+",
                             r"give a contract \(with declarer and tricks or result\), ns_score, or adjusted",
                             r"a split score needs ns_score too",
                             r"an assigned score has no declarer, tricks or result",
                             r"a passed-out board has no declarer, tricks or result",
                             r"give only one of a contract, ns_score, or adjusted",
                             r"give the tricks taken or the result", r"give tricks or result, not both",
                             r"is required with a contract", r"needs \d+ tricks, and a deal has 13",
                             r"contradicts an earlier row", r"no table \d+ plays in round",
                             r"did not hold the (NS|EW) cards", r"is a half table in round",
                             r"is in section", r"the movement has no round",
                             # a terminal's CSV body: its header and lines
                             r"the header lacks the column", r"a quoted field is not closed",
                             r"the CSV holds no result rows", r"the CSV is empty",
                             r"is not a whole number from 1",
                             # the hand record: the lead must be in the leader's hand
                             r"is not in [NESW]'s hand"],
    "submit_matches": [r"^\d+ does not meet \d+ in round \d+", r"^\d+ plays no match in round \d+",
                       r"^\d+ cannot play itself",
                       r"^give the match as IMPs \(imps_home and imps_away\) or as VPs",
                       r"^(IMPs|VPs) are given for both sides"],
    "add_bye": [r"^event \d+ has no participant -?\d+", r"; round \d+ is not one of them"],
    "swap_players": [r"^must differ from a", r"is not in this event"],
    "set_pairings": [r"is neither paired nor given the pairing bye", r"is not in this event"],
    "force_boards": [r"is not in this event"],
    "choose_movement": [r"^a custom movement needs `movement` and no `options`",
                        r"^only a custom movement is sent whole",
                        r"^is required for a generated movement"] + MOVEMENT_RULES,
}


# Per operation id: the fields (regular expressions) whose every refusal is a rule: the rows
# of an event document and a custom movement, whose content no schema describes row by row.
FIELD_RULES = {"import_event": [r"^tables\."],
               # each section of a tournament document: an event document
               "import_tournament": [r"^sections\["],
               # a section sent as a TRF file: its lines
               "pair_swiss": [r"^line \d+"],
               "import_trf": [r"^line \d+"],
               # a PBN deal string: its hands' cards
               "analyse_deals": [r"(^|\.)deal$"],
               # a custom movement's findings by the movement validator (named `movement`) and
               # its shape, read as the validator reads it (`movement.rounds[0].sit_out[1]`)
               "choose_movement": [r"^movement(\.|$)"]}


def _query_fits(case, name):
    """Whether the query parameter `name` as sent fits its schema (the coverage phase has been
    seen sending `0.5` for a string whose pattern takes digits only, as valid data)."""
    import jsonschema_rs

    value = (case.query or {}).get(name)
    if value is None:
        return True
    for p in case.operation.definition.raw.get("parameters", []):
        if p.get("in") == "query" and p.get("name") == name and "$ref" not in json.dumps(p):
            try:
                return jsonschema_rs.is_valid(p.get("schema", {}), value)
            except Exception:  # noqa: BLE001 - a schema the validator cannot read: trust it
                return True
    return True


def _operation_id(case):
    try:
        return case.operation.definition.raw.get("operationId")
    except AttributeError:
        return None


@schemathesis.check
def refusals_name_a_rule(ctx, response, case):
    """A valid request refused with 422 on an operation of RULES: every error is a rule."""
    meta = getattr(case, "meta", None)
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return None
    operation = _operation_id(case)
    rules = RULES.get(operation)
    if rules is None:
        return None  # positive_data_acceptance fails it already
    fields = FIELD_RULES.get(operation, [])
    try:
        errors = response.json().get("errors") or [{"field": "", "message": response.json()["detail"]}]
    except Exception:  # noqa: BLE001 - an answer that is no problem+json is another check's
        return None
    unexplained = [e for e in errors
                   if not any(re.search(rule, e.get("message", "")) for rule in rules)
                   and not any(re.search(rule, e.get("field") or "") for rule in fields)
                   and _query_fits(case, e.get("field") or "")]
    if unexplained:
        raise AssertionError(
            "A request valid by the schema was refused for a rule the schema could state: "
            + "; ".join(f"{e.get('field')}: {e.get('message')}" for e in unexplained))
    return None
