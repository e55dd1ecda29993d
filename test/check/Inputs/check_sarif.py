#!/usr/bin/env python3
"""Checks the structure of a SARIF 2.1.0 log written by `clang-autoprof
check --format=sarif` and prints one line per result, for FileCheck:

    <ruleId> <level> <file name>:<line>:<column> fixes=<n>

  check_sarif.py <log.sarif> <docs/checks directory>
"""
import json
import os
import sys


def fail(msg):
    sys.exit("check_sarif: " + msg)


def main():
    log = json.load(open(sys.argv[1]))
    checks_dir = sys.argv[2]
    if log.get("version") != "2.1.0":
        fail("version is not 2.1.0")
    runs = log.get("runs")
    if not isinstance(runs, list) or len(runs) != 1:
        fail("expected one run")
    driver = runs[0]["tool"]["driver"]
    if driver.get("name") != "clang-autoprof":
        fail("tool.driver.name")
    rules = driver.get("rules", [])
    ids = [r["id"] for r in rules]
    for r in rules:
        if not r["shortDescription"]["text"]:
            fail("rule %s has no shortDescription" % r["id"])
        if len(r.get("help", {}).get("text", "")) < 80:
            fail("rule %s has no help text" % r["id"])
        if not r["helpUri"].endswith("/checks/%s.md" % r["id"]):
            fail("rule %s helpUri %s" % (r["id"], r["helpUri"]))
        if not os.path.exists(os.path.join(checks_dir, r["id"] + ".md")):
            fail("rule %s has no documentation" % r["id"])
    print("rules: " + ",".join(ids))
    for res in runs[0]["results"]:
        if res["ruleId"] not in ids:
            fail("result with unknown ruleId %s" % res["ruleId"])
        if ids[res["ruleIndex"]] != res["ruleId"]:
            fail("ruleIndex does not match ruleId")
        if res["level"] not in ("warning", "error", "note"):
            fail("level %s" % res["level"])
        if not res["message"]["text"]:
            fail("empty message")
        loc = res["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        if not uri.startswith("file:///"):
            fail("uri %s is not an absolute file URI" % uri)
        region = loc["region"]
        fixes = res.get("fixes", [])
        for fix in fixes:
            for change in fix["artifactChanges"]:
                if not change["artifactLocation"]["uri"].startswith("file:///"):
                    fail("fix uri")
                for rep in change["replacements"]:
                    d = rep["deletedRegion"]
                    for key in ("startLine", "startColumn", "charOffset", "charLength"):
                        if not isinstance(d.get(key), int):
                            fail("deletedRegion without %s" % key)
                    if "text" not in rep["insertedContent"]:
                        fail("insertedContent without text")
        print("%s %s %s:%d:%d fixes=%d" % (res["ruleId"], res["level"],
                                           os.path.basename(uri),
                                           region["startLine"],
                                           region["startColumn"], len(fixes)))


if __name__ == "__main__":
    main()
