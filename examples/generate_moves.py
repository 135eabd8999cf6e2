#!/usr/bin/env python3
"""Writes N random moves for `collidoscope sweep LEVEL --batch`, one JSON
object per line, to stdout: starts uniform in a box (world space, metres,
Y up), moves of 0.1 to 3 m in a random horizontal direction with a small
random vertical part, a gravity of -0.5 m on every other line. The same
seed gives the same file.

    python3 examples/generate_moves.py 100000 MINX,MINY,MINZ MAXX,MAXY,MAXZ > moves.jsonl
"""
import json
import math
import random
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    count = int(sys.argv[1])
    lo = [float(x) for x in sys.argv[2].split(",")]
    hi = [float(x) for x in sys.argv[3].split(",")]
    rng = random.Random(15)
    out = sys.stdout
    for i in range(count):
        start = [round(rng.uniform(a, b), 4) for a, b in zip(lo, hi)]
        length = rng.uniform(0.1, 3.0)
        yaw = rng.uniform(0.0, 2.0 * math.pi)
        move = {
            "from": start,
            "velocity": [
                round(length * math.cos(yaw), 4),
                round(rng.uniform(-0.2, 0.2), 4),
                round(length * math.sin(yaw), 4),
            ],
        }
        if i % 2:
            move["gravity"] = [0, -0.5, 0]
        out.write(json.dumps(move, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
