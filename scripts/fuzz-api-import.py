"""The event import fuzzed with real documents, and every read of every event (the HTML pages
too, which the OpenAPI document does not list). Run by scripts/fuzz-api after schemathesis.

Usage: fuzz-api-import.py BASE EVENTS_JSON OPENAPI_JSON SECONDS SEED

1. Each live event (EVENTS_JSON: id and admin token, from fuzz-api-events.py) is exported and
   imported: the import must be a 201, and the new event's every read answers without a 5xx.
2. For SECONDS: one of those documents with one to three values changed, keys dropped or rows
   doubled (huge and negative numbers, long and non-ASCII texts, wrong types) is imported. Every
   answer must be a 201 (then the new event's reads must work) or a 4xx problem+json whose
   `errors[]` names at least one field; a refused document must leave the number of events
   unchanged (nothing half-written).
3. Every read of every event, live and imported, answers without a 5xx.

Prints the failures (method, path, status, the mutation) and exits 1 if there were any.
"""

import copy
import json
import random
import sys
import time
import urllib.error
import urllib.request

BASE, EVENTS, OPENAPI = sys.argv[1], sys.argv[2], sys.argv[3]
SECONDS, SEED = float(sys.argv[4]), int(sys.argv[5])
rng = random.Random(SEED)
failures = []


def call(method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


def fail(what, status, body, note=""):
    failures.append(f"{what}: {status} {body[:300]!r} {note}")


# Reads of an event: every GET of the document with no other path parameter than the event's
# (the stream never ends), the same with round/board/pair 1, and the public pages.
with open(OPENAPI) as f:
    paths = json.load(f)["paths"]
READS = []
for p, ops in paths.items():
    if "get" not in ops or not p.startswith("/api/v1/events/{event_id}") or p.endswith("/stream"):
        continue
    p = p.replace("{round}", "1").replace("{board}", "1").replace("{pair}", "1")
    if "{" not in p.replace("{event_id}", ""):
        READS.append(p)
READS += ["/e/{event_id}", "/e/{event_id}/standings", "/e/{event_id}/crosstable",
          "/e/{event_id}/rounds/1", "/e/{event_id}/guide-cards", "/e/{event_id}/travellers/1"]


def read_all(event_id, token, note=""):
    """Every read of the event (and each player's page) answers without a 5xx."""
    targets = [p.replace("{event_id}", str(event_id)) for p in READS]
    status, _, body = call("GET", f"/api/v1/events/{event_id}/participants?limit=200")
    if status == 200:
        for p in json.loads(body).get("items", [])[:40]:
            targets += [f"/e/{event_id}/players/{p['id']}",
                        f"/api/v1/events/{event_id}/participants/{p['id']}/games"]
    for path in targets:
        status, _, body = call("GET", path, token=token if path.endswith("/export") else None)
        if status >= 500:
            fail(f"GET {path}", status, body, note)


def event_count():
    status, _, body = call("GET", "/api/v1/events?limit=1")
    return json.loads(body)["total"] if status == 200 else None


# Values a fuzzer seldom tries in a document it did not write itself.
EDGES = [2**63 - 1, -(2**63), 2**64, -1, 0, 1e308, -1e308, 0.5, 4294967296, 65536, 99999,
         "", "x" * 20000, "Ødegård\u202e周\u0000", "1-0", "=cmd|' /C calc'!A0", "<script>",
         None, True, [], {}, [1, 2], {"a": 1}, "2026-02-30T25:61:00Z", "NaN"]


def values(doc):
    """Every (container, key) of the document's values below `tables`."""
    out = []

    def walk(v):
        if isinstance(v, dict):
            for k in v:
                out.append((v, k))
                walk(v[k])
        elif isinstance(v, list):
            for i in range(len(v)):
                out.append((v, i))
                walk(v[i])

    walk(doc["tables"])
    return out


def mutate(doc):
    """One to three changes; returns the document and what was done."""
    doc = copy.deepcopy(doc)
    done = []
    for _ in range(rng.randint(1, 3)):
        spots = values(doc)
        if not spots:
            break
        parent, key = rng.choice(spots)
        action = rng.random()
        if action < 0.7:
            edge = rng.choice(EDGES)
            parent[key] = edge
            done.append(f"[{key!r}] = {str(edge)[:40]!r}")
        elif action < 0.85 and isinstance(parent, dict):
            del parent[key]
            done.append(f"del [{key!r}]")
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
            done.append(f"row [{key!r}] doubled")
        else:
            other = rng.choice(spots)
            parent[key] = copy.deepcopy(other[0][other[1]])
            done.append(f"[{key!r}] = the value at [{other[1]!r}]")
    return doc, "; ".join(done)


def imported(status, ctype, body, note):
    """Checks an import's answer; the new event's id and token when one was made."""
    if status == 201:
        created = json.loads(body)
        return created["id"], created["admin_token"]
    if status >= 500 or status < 400:
        fail("POST /api/v1/events/import", status, body, note)
    elif not ctype.startswith("application/problem+json"):
        fail("POST /api/v1/events/import (content type)", status, body, note)
    elif status == 422 and not json.loads(body).get("errors"):
        fail("POST /api/v1/events/import (no field named)", status, body, note)
    return None


with open(EVENTS) as f:
    events = json.load(f)
documents = []
for e in events:
    status, _, body = call("GET", f"/api/v1/events/{e['id']}/export", token=e["token"])
    if status != 200:
        # The fuzzer may have left the event unexportable only by deleting it.
        if status != 404:
            fail(f"GET /api/v1/events/{e['id']}/export", status, body)
        continue
    doc = json.loads(body)
    documents.append((e["name"], doc))
    status, ctype, body = call("POST", "/api/v1/events/import", doc)
    new = imported(status, ctype, body, f"the {e['name']} event as exported")
    if new is None:
        fail(f"import of the {e['name']} event as exported", status, body)
    else:
        read_all(new[0], new[1], f"(the {e['name']} event imported)")

tried = accepted = 0
deadline = time.monotonic() + SECONDS
while documents and time.monotonic() < deadline:
    name, doc = rng.choice(documents)
    changed, note = mutate(doc)
    before = event_count()
    status, ctype, body = call("POST", "/api/v1/events/import", changed)
    tried += 1
    note = f"({name}: {note})"
    new = imported(status, ctype, body, note)
    if new is None:
        if event_count() != before:
            fail("POST /api/v1/events/import refused but an event was added", status, body, note)
        continue
    accepted += 1
    read_all(new[0], new[1], note)
    call("DELETE", f"/api/v1/events/{new[0]}", token=new[1])

for e in events:
    read_all(e["id"], e["token"], f"(the {e['name']} event after the fuzzer)")

print(f"fuzz-api: import: {len(documents)} events exported and imported, {tried} changed "
      f"documents ({accepted} accepted), {len(failures)} failures", file=sys.stderr)
for f in failures[:50]:
    print("  " + f, file=sys.stderr)
sys.exit(1 if failures else 0)
