#!/usr/bin/env python3
"""Ground truth for levels/world.ldtk (Nuclear Blaze, LD48 version, LDtk 0.9.4).

Game code: github.com/deepnight/ld48-NuclearBlaze-48h @ 69df609f21c32d860a27bb2f074900844d2ec038
(world.ldtk and world/*.ldtkl here are byte-identical to res/levels/ at that commit).
Disc iteration: github.com/deepnight/deepnightLibs @ 481f1a9975e8d4da93ed5c84e68d7605a19c02e0
src/dn/Bresenham.hx:288-312 (iterateDisc; unchanged 2021-2022, the game pulls deepnightLibs
from git HEAD, setup.hxml). Entity cell = LDtk `__grid` (ldtk-haxe-api src/ldtk/Entity.hx:53-54).
Paths below are in the game repo unless noted.

Grid: IntGrid "Collisions" (16 px), read from intGridCsv (checked against the 0.9.4 `intGrid`
list, whose `v` is value-1).

Start-of-level state is rebuilt in the order of Game.startLevel (src/game/gm/Game.hx:109-144):
  1. new Level: fire spots are created on the raw Collisions (no door overrides yet)
     (src/game/gm/Level.hx:49-77): a non-colliding, non-border cell gets a FireState if the
     cell below collides (1/2) and is not Properties=stopFire(2), else if a side neighbour
     collides and is not stopFire; it is `quickFire` if the cell below is Properties=oil(1).
  2. Doors (Game.hx:112-113): each Door sets a collision override on cHei=round(height/16)
     cells (cx, cy-i) to `closed` = !opened (src/game/gm/en/int/Door.hx:19-23,41-56;
     Level.hx:165-171). So a closed door is solid, an opened one clears collision.
  3. Smokers only set FireState.extinguished, which nothing but fx reads (Game.hx:133-137,
     Level.hx:282) -> no effect on the start state.
  4. FireStarters (Game.hx:140-144): iterateDisc(cx,cy,range) calling Level.ignite(x,y,
     startFireLevel) (Level.hx:240-254): only cells with a FireState, not colliding (door
     overrides included), not under control, and not already burning; FireState.ignite sets
     level=startLevel (src/game/gm/FireState.hx:42-47); a quickFire cell is forced to level 1
     and ignites its left/right neighbours at level 0, recursively.

Cell rule (priority solid > one-way > hazard > ladder, as the spec asks):
  '#' hasAnyCollision & hasWallCollision: door override true, or (no override and value 1)
      (Level.hx:177-192). Walls block all sides (Entity.hx:733-762).
  '=' hasOneWay (Level.hx:195-197): value 2 (no override), or a ladder (3) cell whose upper
      cell is neither a ladder nor colliding. Value 2 is landable (hasAnyCollision,
      Entity.hx:750) but not a ceiling/side wall (hasWallCollision). The ladder-top cell is
      NOT landable (hasAnyCollision excludes 3); the game keeps the hero on it with the
      "climb one ways" pop-up (src/game/gm/en/Hero.hx:486-492) and bullets stop on it
      falling (src/game/gm/en/Bullet.hx:17).
  '^' fire burning at level >= 2 right after level start: standing in such a cell calls
      hit(1) (Hero.hx:535-543) and the hero has 1 HP (res/data.cdb HeroHP=1, Hero.hx:31)
      -> kills. Level 0/1 fires (oil quick-fires, startFireLevel 1 starters) only set the
      "burning" cooldown (visual, Hero.hx:308) and are NOT marked, although they grow
      (+0.2 level per 0.5 s tick, Level.hx:364-414, data.cdb FireTick/FireIncPerTick) and
      spread; fire is dynamic, only the t=0 state is written.
  'H' ladder: value 3 (Level.hx:200-202; climbing Hero.hx:397-435,494-512).
Spawn: the Hero entity (Hero.hx:23-25); setPosCase puts it at xr=0.5, yr=1 of its cell
  (Entity.hx:303-309), so the spawn cell is its __grid cell.
Goal: every cell covered (>= half) by an Exit entity's box: attach point ((cx+0.5)*16,
  (cy+1)*16), pivot (0.5,1), size = entity width/height (src/game/gm/en/Exit.hx:5-15,
  Entity.hx:167-183); it fires nextLevel when the hero centre is inside and the level is
  complete (Exit.hx:40-47, Game.hx:295-297).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MAP = os.path.join("levels", "world.ldtk")
REPO = "deepnight/ld48-NuclearBlaze-48h@69df609"
GRID = 16
OIL, STOP_FIRE = 1, 2
HURT_LEVEL = 2

sys.setrecursionlimit(100000)


def int_layer(li):
    w, h = li["__cWid"], li["__cHei"]
    csv = li.get("intGridCsv")
    if csv is not None:
        vals = list(csv)
        if li.get("intGrid"):
            old = [0] * (w * h)
            for e in li["intGrid"]:
                old[e["coordId"]] = e["v"] + 1
            assert old == vals, "intGrid and intGridCsv disagree in " + li["__identifier"]
    else:
        vals = [0] * (w * h)
        for e in li.get("intGrid") or []:
            vals[e["coordId"]] = e["v"] + 1
    return vals


def iterate_disc(x0, y0, radius, cb):
    """dn.Bresenham.iterateDisc (deepnightLibs src/dn/Bresenham.hx:288-312), same order."""
    def hline(fx, fy, tx):
        for x in range(fx, tx + 1):
            cb(x, fy)
    x, y = radius, 0
    err = 1 - x
    while x >= y:
        hline(-x + x0, y + y0, x + x0)
        if (radius <= 1 or (x != y and y != 0)) and err >= 0:
            hline(-y + x0, x + y0, y + x0)
        if y != 0:
            hline(-x + x0, -y + y0, x + x0)
        if (radius <= 1 or (x != y and y != 0)) and err >= 0:
            hline(-y + x0, -x + y0, y + x0)
        y += 1
        if err < 0:
            err += 2 * y + 1
        else:
            x -= 1
            err += 2 * (y - x + 1)


class FireState:
    def __init__(self):
        self.level = 0
        self.lr = 0.0
        self.quick = False

    def burning(self):
        return self.level > 0 or self.lr > 0


def fields(e):
    return {f["__identifier"]: f["__value"] for f in e["fieldInstances"]}


def solve(data):
    layers = {li["__identifier"]: li for li in data["layerInstances"]}
    col = layers["Collisions"]
    W, H = col["__cWid"], col["__cHei"]
    assert col["__gridSize"] == GRID
    coll = int_layer(col)
    props = int_layer(layers["Properties"])
    ents = [e for li in data["layerInstances"] for e in (li.get("entityInstances") or [])]
    override = {}

    def valid(x, y):
        return 0 <= x < W and 0 <= y < H

    def val(x, y):
        return coll[y * W + x]

    def has_any(x, y):
        if not valid(x, y):
            return True
        if (x, y) in override:
            return override[(x, y)]
        return val(x, y) in (1, 2)

    def has_wall(x, y):
        if not valid(x, y):
            return True
        if (x, y) in override:
            return override[(x, y)]
        return val(x, y) == 1

    def has_ladder(x, y):
        return valid(x, y) and val(x, y) == 3

    def has_one_way(x, y):
        return valid(x, y) and (val(x, y) == 2 or
                                has_ladder(x, y) and not has_ladder(x, y - 1) and not has_any(x, y - 1))

    def has_prop(x, y, p):
        return valid(x, y) and props[y * W + x] == p

    # 1. fire spots (Level.hx:49-77), raw collisions
    fires = {}
    for cy in range(H):
        for cx in range(W):
            if has_any(cx, cy):
                continue
            if cx <= 0 or cy <= 0 or cx >= W - 1 or cy >= H - 1:
                continue
            if has_any(cx, cy + 1) and not has_prop(cx, cy + 1, STOP_FIRE):
                fires[(cx, cy)] = FireState()
            elif (has_any(cx - 1, cy) and not has_prop(cx - 1, cy, STOP_FIRE)
                  or has_any(cx + 1, cy) and not has_prop(cx + 1, cy, STOP_FIRE)):
                fires[(cx, cy)] = FireState()
            if (cx, cy) in fires and has_prop(cx, cy + 1, OIL):
                fires[(cx, cy)].quick = True

    # 2. doors (Door.hx:19-23,41-56)
    for e in ents:
        if e["__identifier"] != "Door":
            continue
        f = fields(e)
        cx, cy = e["__grid"]
        chei = int(e["height"] / GRID + 0.5)
        closed = not f["opened"]
        for i in range(chei):
            if valid(cx, cy - i):
                override[(cx, cy - i)] = closed

    # 4. fire starters (Game.hx:140-144, Level.hx:240-254)
    def ignite(x, y, start_level=0, start_progress=0.0):
        fs = fires.get((x, y)) if valid(x, y) else None
        if fs is None or has_any(x, y):
            return
        if not fs.burning():
            if not fs.burning() or fs.level < start_level:
                fs.level = start_level
                fs.lr = max(start_progress, 0.01)
            if fs.quick:
                fs.level = 1
                fs.lr = 0.5
                ignite(x - 1, y)
                ignite(x + 1, y)

    for e in ents:
        if e["__identifier"] != "FireStarter":
            continue
        f = fields(e)
        cx, cy = e["__grid"]
        iterate_disc(cx, cy, f["range"], lambda x, y, L=f["startFireLevel"]: ignite(x, y, L))

    grid = []
    burning_low = 0
    for y in range(H):
        row = []
        for x in range(W):
            fs = fires.get((x, y))
            if has_any(x, y) and has_wall(x, y):
                c = "#"
            elif (x, y) not in override and has_one_way(x, y):
                c = "="
            elif (x, y) in override and has_ladder(x, y) and has_one_way(x, y):
                c = "="
            elif fs is not None and fs.burning() and fs.level >= HURT_LEVEL:
                c = "^"
            elif has_ladder(x, y):
                c = "H"
            else:
                c = "."
            if fs is not None and fs.burning() and fs.level < HURT_LEVEL:
                burning_low += 1
            row.append(c)
        grid.append("".join(row))

    spawn = "none"
    heroes = [e for e in ents if e["__identifier"] == "Hero"]
    if heroes:
        spawn = "%d,%d" % tuple(heroes[0]["__grid"])

    goals = []
    for e in ents:
        if e["__identifier"] != "Exit":
            continue
        cx, cy = e["__grid"]
        ax, ay = (cx + 0.5) * GRID, (cy + 1) * GRID
        l, r = ax - 0.5 * e["width"], ax + 0.5 * e["width"]
        t, b = ay - e["height"], ay
        for gy in range(H):
            for gx in range(W):
                ox = min(r, (gx + 1) * GRID) - max(l, gx * GRID)
                oy = min(b, (gy + 1) * GRID) - max(t, gy * GRID)
                if ox > 0 and oy > 0 and ox * oy * 2 >= GRID * GRID and (gx, gy) not in goals:
                    goals.append((gx, gy))
    return grid, spawn, goals, burning_low


def main():
    mapdir = os.path.dirname(os.path.join(HERE, MAP))
    with open(os.path.join(HERE, MAP), encoding="utf-8") as f:
        project = json.load(f)
    for lv in project["levels"]:
        if lv.get("externalRelPath"):
            with open(os.path.join(mapdir, lv["externalRelPath"]), encoding="utf-8") as f:
                data = json.load(f)
        else:
            data = lv
        grid, spawn, goals, low = solve(data)
        out = os.path.join(HERE, "%s.%s.truth" % (MAP, lv["identifier"]))
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.write("# %s level %s: Collisions 1=wall 2=one-way 3=ladder (ladder top one-way), "
                    "closed doors solid, fire level>=2 at start = hazard, from %s\n"
                    % (os.path.basename(MAP), lv["identifier"], REPO))
            f.write("spawn %s\n" % spawn)
            f.write("goal %s\n" % (" ".join("%d,%d" % g for g in goals) if goals else "none"))
            for row in grid:
                f.write(row + "\n")
        if "-v" in sys.argv:
            print(lv["identifier"], "burning below hurt level at start:", low)


if __name__ == "__main__":
    main()
