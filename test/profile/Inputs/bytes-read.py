"""Prints the DRAM bytes a profile's first record read, in whole MiB:
`dram_mib N`.

  bytes-read.py PROFILE
"""
import json
import sys

with open(sys.argv[1]) as f:
    rec = json.load(f)["records"][0]
value = rec["metrics"]["dram__bytes_read.sum"]["value"]
print("dram_mib %d" % int(value / 2**20))
