#!/usr/bin/env python3
"""Writes a recording (CSV, the format `collidoscope replay` reads) from the
JSON of `collidoscope walk --json`: for each frame the time, the ellipsoid
centre before it, its velocity (the walk's horizontal speed and the vertical
speed) and whether it stood on ground, then the final position. World space,
Y up, metres. With SHIFT_FRAME and SHIFT_M, every position from that frame on
is moved SHIFT_M metres along +x (sideways to a walk along z): a recording
that diverges there.

    collidoscope walk LEVEL --from X,Y,Z --direction X,Z --seconds S --json \\
        | python3 examples/recording_from_walk.py [SHIFT_FRAME SHIFT_M] > rec.csv
"""
import json
import sys


def main():
    if len(sys.argv) not in (1, 3):
        sys.exit(__doc__)
    shift_frame, shift_m = (int(sys.argv[1]), float(sys.argv[2])) if len(sys.argv) == 3 else (None, 0.0)
    walk = json.load(sys.stdin)
    ch = walk["settings"]["character"]
    dt = 1.0 / ch["frame_rate_hz"]
    speed = ch["walk_speed_m_s"]
    dx, _, dz = walk["spec"]["direction"]
    states = [f["before"] for f in walk["frames"]] + [walk["frames"][-1]["after"]]
    out = sys.stdout
    out.write("t,x,y,z,vx,vy,vz,grounded\n")
    for i, s in enumerate(states):
        x, y, z = s["position"]
        if shift_frame is not None and i >= shift_frame:
            x += shift_m
        row = [i * dt, x, y, z, dx * speed, s["vertical_speed_m_s"], dz * speed, int(s["grounded"])]
        out.write(",".join(repr(round(v, 9)) if isinstance(v, float) else str(v) for v in row) + "\n")


if __name__ == "__main__":
    main()
