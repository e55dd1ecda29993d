#!/usr/bin/env python3
"""Writes hostile tree files into the folder given:

  nested.json    JSON nested 200,000 levels deep (220 KB)
  chain.json     a chain of 45,000 tests, each with a leaf on one side
  shared.json    24 tests whose both branches lead to the next test: 2^24
                 paths to the last leaf
  dupkey.json    a node object with "then" twice
"""

import json
import os
import sys

out = sys.argv[1]
LEAF = {"metrics": ["dram__bytes_read.sum"], "focus": "f"}


def tree(nodes, root="t0"):
    return {"version": 1, "name": "hostile", "chips": ["GH100"], "budget": 4,
            "stage1": [], "root": root, "nodes": nodes}


def test(i, then, other):
    return {"id": "t%d" % i,
            "test": {"feature": "loops", "op": ">", "threshold": 0},
            "then": then, "else": other}


def write(name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


write("nested.json", "[" * 200000 + "]" * 200000)

nodes = []
for i in range(45000):
    nodes.append(test(i, "l%d" % i, "t%d" % (i + 1) if i + 1 < 45000 else "end"))
    nodes.append({"id": "l%d" % i, "leaf": LEAF})
nodes.append({"id": "end", "leaf": LEAF})
write("chain.json", json.dumps(tree(nodes)))

nodes = [test(i, "t%d" % (i + 1), "t%d" % (i + 1)) for i in range(24)]
nodes.append({"id": "t24", "leaf": LEAF})
write("shared.json", json.dumps(tree(nodes)))

write("dupkey.json", json.dumps(tree([{"id": "l0", "leaf": LEAF}], "l0"))
      .replace('"id": "l0", "leaf"', '"id": "l0", "id": "l1", "leaf"'))
