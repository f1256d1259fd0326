#!/usr/bin/env python3
"""Scrapes a Prometheus endpoint and parses it with the official client's parser.

Usage: scrape_metrics.py URL

Prints one JSON object: {"content_type": ..., "families": [{"name", "type", "help",
"samples": [{"name", "labels", "value"}]}]}. Exits 1 (with the parser's message on stderr) when
the exposition does not parse: prometheus_client.parser.text_string_to_metric_families is strict
about the text format (HELP/TYPE lines, label escaping, histogram buckets and their order).
"""
import json
import sys
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def main() -> int:
    url = sys.argv[1]
    with urllib.request.urlopen(url, timeout=10) as response:
        content_type = response.headers.get("Content-Type", "")
        text = response.read().decode("utf-8")
    try:
        families = [
            {
                "name": family.name,
                "type": family.type,
                "help": family.documentation,
                "samples": [
                    {"name": sample.name, "labels": sample.labels, "value": sample.value}
                    for sample in family.samples
                ],
            }
            for family in text_string_to_metric_families(text)
        ]
    except Exception as error:  # the parser raises ValueError and others on bad input
        print(f"scrape_metrics.py: the exposition does not parse: {error}\n{text}", file=sys.stderr)
        return 1
    print(json.dumps({"content_type": content_type, "families": families}, allow_nan=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
