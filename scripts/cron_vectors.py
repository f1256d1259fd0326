#!/usr/bin/env python3
"""Generates Tests/SkillbookScheduleTests/Fixtures/cron_vectors.json: for each (expression, zone,
start) the next five fire instants, computed by the PyPI package `cronsim` (Debian cron semantics).

    python3 -m venv .build/venv && .build/venv/bin/pip install cronsim
    .build/venv/bin/python scripts/cron_vectors.py > Tests/SkillbookScheduleTests/Fixtures/cron_vectors.json

Macros (@daily, ...) are expanded here, as cronsim does not take them; the row keeps the macro.

Where cronsim departs from Debian cron's rule, the row carries the Debian answer and a `note`.
For every start in a DST night the script also computes the Debian answer by brute force (minute by
minute: real time for schedules with `*` in minute or hour; wall time, with a skipped time moved
to the end of the gap and a repeated time taken once at its first occurrence, for fixed times) and
compares. cronsim agrees everywhere except in a repeated hour:
- "wildcard-fold": for `*` in minute or hour, cronsim's `replace(minute=0)` on an aware datetime
  falls back into the first copy of the repeated hour, so it returns an instant before the previous
  fire and never the second copy. Debian cron runs wildcard jobs in both copies (real-time cadence).
- "fixed-fold": for a fixed time, from a start inside the second copy cronsim works on naive local
  time and returns the first copy again, an instant before the start. Debian cron fires a fixed
  time once, at its first occurrence.
"""
import json
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from cronsim import CronSim

MACROS = {
    "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}

ZONES = [
    "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo",
    "Africa/Cairo", "Pacific/Apia", "Asia/Kolkata", "Pacific/Chatham", "Europe/London",
]

GENERAL = [
    "* * * * *", "*/15 * * * *", "0 * * * *", "30 7 * * 1-5", "0 9 * * mon,wed,fri", "15 14 1 * *",
    "0 22 * * 1-5", "23 0-20/2 * * *", "5 4 * * sun", "0 0,12 1 */2 *", "0 0 31 * *", "0 12 29 2 *",
    "0 0 13 * 5", "0 8 1 * 1", "30 6 * * */2", "0 0 1 * */2", "*/20 9-17 * * 1-5", "0 0 * * 7",
    "@hourly", "@daily", "@weekly", "@monthly", "@yearly", "@annually", "@midnight",
    "0 3 * jan-mar,DEC *", "45 23 28-31 * *", "0 0 29 2 1", "10,40 1-3 * * *",
    "0 5 5/10 * *", "59 23 31 12 *", "0 */6 * * *", "7 7 7 7 7",
]

# Wall-clock starts that exercise DST nights and odd days, per zone (local time, ISO).
NIGHTS = {
    "Europe/Berlin": ["2026-03-28T23:00", "2026-03-29T01:59", "2026-10-24T23:00", "2026-10-25T02:30"],
    "America/New_York": ["2026-03-07T23:00", "2026-03-08T01:59", "2026-10-31T23:00", "2026-11-01T01:10"],
    "Australia/Lord_Howe": ["2026-04-04T23:00", "2026-04-05T01:40", "2026-10-03T23:00", "2026-10-04T01:50"],
    "America/Sao_Paulo": ["2018-11-03T22:00", "2018-11-03T23:50", "2019-02-16T22:00", "2019-02-16T23:30"],
    "Africa/Cairo": ["2024-04-25T22:00", "2024-04-25T23:50", "2024-10-31T22:00", "2024-10-31T23:30"],
    "Pacific/Apia": ["2011-12-29T20:00", "2011-12-29T23:59", "2011-09-24T02:00", "2012-04-01T02:30"],
    "Europe/London": ["2026-03-29T00:00", "2026-10-25T00:30"],
    "Pacific/Chatham": ["2026-09-27T01:00", "2026-04-05T02:30"],
}
NIGHT_EXPRESSIONS = [
    "30 2 * * *", "0 2 * * *", "*/10 * * * *", "0 * * * *", "30 * * * *", "15 1 * * *", "0,30 2,3 * * *",
    "*/30 2 * * *", "0 0 * * *", "45 1 * * 0", "30 0 * * *", "59 1 * * *", "*/7 1-3 * * *", "10 2 * * *",
]
GENERAL_STARTS = ["2026-01-15T10:17", "2026-02-27T23:59", "2027-12-31T23:30", "2028-02-28T12:00"]


def cronsim_fires(fields, start):
    sim = CronSim(fields, start)
    return [next(sim) for _ in range(5)]


def matches(sim, wall):
    return (wall.minute in sim.minutes and wall.hour in sim.hours and wall.month in sim.months
            and sim.match_day(wall.date()))


def debian_fires(fields, zone, start, days=60):
    """Debian cron's answer, minute by minute over `days` days (enough for the night rows)."""
    sim = CronSim(fields, start)
    parts = fields.split()
    utc = timezone.utc
    found = set()
    if parts[0].startswith("*") or parts[1].startswith("*"):
        instant = start.astimezone(utc).replace(second=0) + timedelta(minutes=1)
        for _ in range(days * 1440):
            if matches(sim, instant.astimezone(zone)):
                found.add(instant)
                if len(found) == 5:
                    break
            instant += timedelta(minutes=1)
    else:
        wall = start.replace(tzinfo=None, second=0) - timedelta(hours=26)
        for _ in range((days + 2) * 1440):
            wall += timedelta(minutes=1)
            if not matches(sim, wall):
                continue
            first = wall.replace(tzinfo=zone, fold=0).astimezone(utc)
            later = wall.replace(tzinfo=zone, fold=1).astimezone(utc)
            if first.astimezone(zone).replace(tzinfo=None) != wall:
                # Skipped: the first instant after the gap (between the two readings).
                instant = gap_end(zone, min(first, later), max(first, later))
            else:
                instant = min(first, later)
            if instant > start:
                found.add(instant)
            if len(found) >= 5 and max(found) < instant - timedelta(days=1):
                break
    return [f.astimezone(zone) for f in sorted(found)[:5]]


def gap_end(zone, low, high):
    """The first instant (whole second) of the new offset, between `low` and `high` (UTC)."""
    after = high.astimezone(zone).utcoffset()
    lo, hi = int(low.timestamp()), int(high.timestamp())
    while hi - lo > 1:
        middle = (lo + hi) // 2
        if datetime.fromtimestamp(middle, timezone.utc).astimezone(zone).utcoffset() == after:
            hi = middle
        else:
            lo = middle
    return datetime.fromtimestamp(hi, timezone.utc)


def fires(expr, zone, start, night):
    fields = MACROS.get(expr.lower(), expr)
    result = cronsim_fires(fields, start)
    # Aware datetimes of one zone compare as naive wall times in Python: compare timestamps.
    stamps = [t.timestamp() for t in [start] + result]
    increasing = all(b > a for a, b in zip(stamps, stamps[1:]))
    if not night:
        if not increasing:
            raise SystemExit(f"cronsim is not increasing for {expr!r} in {zone} from {start}")
        return result, None
    debian = debian_fires(fields, ZoneInfo(zone), start)
    if [f.timestamp() for f in debian] == stamps[1:]:
        return result, None
    parts = fields.split()
    kind = "wildcard-fold" if parts[0].startswith("*") or parts[1].startswith("*") else "fixed-fold"
    if increasing and kind == "fixed-fold":
        raise SystemExit(f"unexplained difference for {expr!r} in {zone} from {start}: {result} vs {debian}")
    return debian, kind


def iso(dt):
    return dt.isoformat(timespec="seconds").replace("+00:00", "Z") if dt.utcoffset() == timedelta(0) else dt.isoformat(timespec="seconds")


def row(expr, zone_name, local_start, fold=0, night=False):
    zone = ZoneInfo(zone_name)
    start = datetime.fromisoformat(local_start).replace(tzinfo=zone, fold=fold)
    # Round-trip through UTC so a start in a gap becomes a real instant.
    start = start.astimezone(timezone.utc).astimezone(zone)
    result, note = fires(expr, zone_name, start, night)
    item = {"expr": expr, "zone": zone_name, "start": iso(start), "fires": [iso(f) for f in result]}
    if note:
        item["note"] = note
    return item


def main():
    rows = []
    for zone in ZONES:
        for expr in GENERAL:
            for start in GENERAL_STARTS[:2] if zone not in ("UTC", "Europe/Berlin") else GENERAL_STARTS:
                rows.append(row(expr, zone, start))
    for zone, starts in NIGHTS.items():
        for expr in NIGHT_EXPRESSIONS:
            for start in starts:
                rows.append(row(expr, zone, start, night=True))
                # The second copy of a repeated wall time, where there is one.
                first = datetime.fromisoformat(start).replace(tzinfo=ZoneInfo(zone), fold=0)
                second = first.replace(fold=1)
                if first.utcoffset() != second.utcoffset():
                    rows.append(row(expr, zone, start, fold=1, night=True))
    # One row per line, so a diff of the table reads row by row.
    sys.stdout.write('{"generator": "scripts/cron_vectors.py (cronsim)", "rows": [\n')
    sys.stdout.write(",\n".join(json.dumps(r, separators=(", ", ": ")) for r in rows))
    sys.stdout.write("\n]}\n")
    notes = {}
    for r in rows:
        notes[r.get("note", "agrees")] = notes.get(r.get("note", "agrees"), 0) + 1
    print(f"{len(rows)} rows in {len({r['zone'] for r in rows})} zones: {notes}", file=sys.stderr)


if __name__ == "__main__":
    main()
