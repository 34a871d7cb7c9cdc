#!/usr/bin/env python3
"""Ground truth for phaser3-tilemap-blog/platformer.json, derived from the
game's own code.

Game: mikewesthad/phaser-3-tilemap-blog-posts @
06a12a0917ccf2b359bf81180797cdc5f687cb72, examples/post-2/03-drawing-platformer
(js/platformer-scene.js, js/player.js, js/index.js; phaser@3.55.2 from
index.html), the only example that loads assets/tilemaps/platformer.json
(platformer-scene.js:21).  Phaser parser code read in phaserjs/phaser
(src/tilemaps/parsers/tiled/ParseGID.js, ParseTilesets.js; unchanged in
substance since 3.0).

Rules applied (paths relative to examples/post-2/03-drawing-platformer/):

* Solid: only the layer `Ground` is collided with:
  `this.groundLayer.setCollisionByProperty({ collides: true })` and
  `addCollider(player, groundLayer)` (js/platformer-scene.js:31, :40-41).
  A Ground tile is solid when its tileset tile has the property
  `collides == true` (Tiled >= 1.2 `tiles[].properties` array, parsed by
  ParseTilesets.js for json.version > 1).  `Background` and `Foreground`
  layers are drawn only (:30, :32) even though their tiles carry `collides`.
  Ground tiles without collides=true are nothing.

* Hazard: every Ground tile with `tile.index === 77` (gid with flip bits
  stripped, ParseGID.js) is removed from the layer and replaced by a static
  spike body (js/platformer-scene.js:47-61) - 32x6 at the tile bottom for
  angle 0, 6x32 on the right for -90, on the left for +90 (all flip-flag
  combinations present map to 0/-90/90 via ParseGID rotation); overlapping a
  spike kills (:93-112).  The removed tile no longer collides, so a spike
  cell is `^`, not `#`.  (gid 77 = tile id 76, the only tile with
  isSpike=true; the game tests the index, not the property.)
  Falling below the layer (`sprite.y > groundLayer.height`, :94) also kills,
  which has no cell.

* Spawn: point object named "Spawn Point" in object layer "Objects"
  (:35-36).  The sprite is centred at it (origin 0.5) with a 32x32 frame and
  body setSize(18, 24).setOffset(7, 9) (js/player.js:26-31): body spans
  x-9..x+9, y-7..y+17; spawn cell = (x // 32, (y + 17 - 1) // 32).

* Goal: none in the game.  Mouse clicks add tiles at run time (:85-91):
  ignored.

Run from anywhere: python3 truth.py -> rewrites platformer.json.truth next to it.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MAP = "platformer.json"
REPO = "mikewesthad/phaser-3-tilemap-blog-posts"
COMMIT = "06a12a0"
FLIPS = 0x80000000 | 0x40000000 | 0x20000000
SPIKE_INDEX = 77
COLLIDE_LAYER = "Ground"


def main():
    with open(os.path.join(HERE, MAP), encoding="utf-8") as f:
        m = json.load(f)
    W, H = m["width"], m["height"]
    TW, TH = m["tilewidth"], m["tileheight"]
    props = {}  # gid -> {name: value}
    for ts in m["tilesets"]:
        for t in ts.get("tiles", []):
            props[ts["firstgid"] + t["id"]] = {p["name"]: p["value"] for p in t.get("properties", [])}

    layer = next(l for l in m["layers"] if l["type"] == "tilelayer" and l["name"] == COLLIDE_LAYER)
    lw = layer["width"]
    grid = [["."] * W for _ in range(H)]
    for r in range(H):
        for c in range(W):
            gid = layer["data"][r * lw + c] & ~FLIPS
            if gid == 0:
                continue
            if gid == SPIKE_INDEX:
                grid[r][c] = "^"
            elif props.get(gid, {}).get("collides") is True:
                grid[r][c] = "#"

    spawn = None
    for og in m["layers"]:
        if og["type"] == "objectgroup" and og["name"] == "Objects":
            for o in og["objects"]:
                if o.get("name") == "Spawn Point":
                    x, y = o["x"], o["y"]
                    spawn = (int(x // TW), int((y + 17 - 1) // TH))
                    break

    out = [
        "# %s: layer 'Ground' tiles with collides=true are solid, gid 77 (isSpike) is a killing "
        "spike, point 'Spawn Point' spawns, no goal, from %s@%s" % (MAP, REPO, COMMIT),
        "spawn %d,%d" % spawn if spawn else "spawn none",
        "goal none",
    ] + ["".join(r) for r in grid]
    with open(os.path.join(HERE, MAP + ".truth"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
