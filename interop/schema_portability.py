"""Checks lomi-control's published schemas as Python's jsonschema does.

Every schema against the Draft 2020-12 metaschema with a FormatChecker (its "regex" format
compiles each pattern with re), every pattern with re.compile, and sample strings matched
against each pattern body, whole. Run by SchemaPortabilityTests; input and output as in
schema-portability.mjs.
"""

import json
import re
import sys

import jsonschema


def main(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    out = {"schemaErrors": [], "patternErrors": [], "matches": {}}
    # what Draft202012Validator.check_schema does, with every error instead of the first
    meta = jsonschema.Draft202012Validator(
        jsonschema.Draft202012Validator.META_SCHEMA, format_checker=jsonschema.FormatChecker())
    for entry in data["schemas"]:
        for e in meta.iter_errors(entry["schema"]):
            where = "/" + "/".join(str(part) for part in e.absolute_path)
            out["schemaErrors"].append({"tool": entry["tool"], "kind": entry["kind"], "error": "%s at %s" % (e.message, where)})
    for entry in data["patterns"]:
        try:
            re.compile(entry["pattern"])
        except re.error as e:
            out["patternErrors"].append(dict(entry, error=str(e)))
    for body in data["bodies"]:
        try:
            whole = re.compile(body)
        except re.error:
            continue
        out["matches"][body] = "".join("1" if whole.fullmatch(p) else "0" for p in data["probes"])
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
