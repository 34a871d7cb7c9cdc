#!/usr/bin/env python3
"""Ground truth for macroquad/map.json, derived from the game's own code.

Game: not-fl3/macroquad @ d8d6141dc4bd8d2c1754365478cb8b6b98238599,
examples/platformer.rs (loads examples/map.json, the file copied here).

Rules applied (all paths relative to that commit):

* Solid: examples/platformer.rs:25-35 iterates
  `tiled_map.tiles("main layer", None)` and pushes `Tile::Solid` for every
  cell whose tile `is_some()`, `Tile::Empty` otherwise, then
  `world.add_static_tiled_layer(static_colliders, 8., 8., 40, 1)`.
  A tile is `Some` when its gid (flip flags stripped) falls inside a tileset
  range: tiled/src/lib.rs:423-429 (`find_tileset`) and :438-460.  The tile
  property `collider` carried by the tileset is never read.
  No JumpThrough tiles are ever created, so nothing is one-way; no hazards,
  ladders or slopes exist in the game.

* Off-by-one in macroquad_tiled: `TilesIterator::next`
  (tiled/src/lib.rs:310-333) returns None as soon as the *next* position
  falls below the rect, before yielding the current cell, so the very last
  cell (x = 39, y = 18) is never yielded.  `static_colliders` therefore has
  759 entries, and physics-platformer/src/lib.rs:390-405 (`collide_tag`)
  treats an index >= static_colliders.len() as Tile::Empty.  So cell (39,18)
  is NOT solid in the game even though the map has a tile there (it is
  enclosed by solid cells and cannot be reached).  EMULATE_LAST_CELL_BUG
  below reproduces this.

* Spawn: hard-coded, `world.add_actor(vec2(50.0, 80.0), 8, 8)`
  (examples/platformer.rs:38) -> not in the map, so `spawn none`
  (it would be cell 6,10: centre x 54, bottom-1 87).

* Goal: none in the game.

* Dynamic: a moving solid platform 32x8 px is created in code at (170,130)
  (examples/platformer.rs:42-45) and moves x in [150,220]
  (:110-120); not marked, per the spec.

Run from anywhere: python3 truth.py  -> rewrites map.json.truth next to it.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MAP = "map.json"
REPO = "not-fl3/macroquad"
COMMIT = "d8d6141"
LAYER = "main layer"
EMULATE_LAST_CELL_BUG = True
FLIP_MASK = 0xF0000000  # macroquad_tiled TILE_FLIP_FLAGS


def main():
    with open(os.path.join(HERE, MAP), encoding="utf-8") as f:
        m = json.load(f)
    width, height = m["width"], m["height"]
    sets = [(ts["firstgid"], ts["tilecount"]) for ts in m["tilesets"]]
    layer = next(l for l in m["layers"] if l["name"] == LAYER)
    data = layer["data"]

    def is_some(gid):
        g = gid & ~FLIP_MASK & 0xFFFFFFFF
        return any(first <= g < first + count for first, count in sets)

    # tiles() iterates over the map's declared width x height (lib.rs:264-273)
    colliders = []
    for y in range(height):
        for x in range(width):
            colliders.append(is_some(data[y * layer["width"] + x]))
    if EMULATE_LAST_CELL_BUG:
        colliders = colliders[:-1]

    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            ix = y * 40 + x  # layer width passed to add_static_tiled_layer
            row.append("#" if ix < len(colliders) and colliders[ix] else ".")
        rows.append("".join(row))

    out = [
        "# %s: every in-tileset tile of layer '%s' is solid (last cell 39,18 dropped by "
        "TilesIterator); spawn hard-coded at px (50,80); moving platform in code, from %s@%s"
        % (MAP, LAYER, REPO, COMMIT),
        "spawn none",
        "goal none",
    ] + rows
    with open(os.path.join(HERE, MAP + ".truth"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
