#!/usr/bin/env python3
"""Ground truth for the two MonoGame.Extended platformer maps (craftworkgames/MonoGame.Extended).

Writes, next to each map:
  Demo.Platformer/level-1.tmx.truth   and   Games.Platformer/test-map.tmx.truth
Standalone, stdlib only, deterministic; run it from anywhere.

== Demo.Platformer/level-1.tmx (25x15 tiles of 32 px) ==
Map file = Source/Demos/Demo.Platformer/Content/level-1.tmx @ 785396d171c465dc532bb54c00bdf9a13ae99303
(its last version). Behaviour from the last playable demo code, @ 4585f9a5c3c0f2b432284e4fc9007894b456ee72
("P"; at 785396d1 the WIP ECS port has commented out the "BadGuy" factory,
Services/TiledObjectToEntityService.cs:21, so loading this map would throw on the BadGuy objects,
and it no longer kills on Deadly). Paths below are under Source/Demos/Demo.Platformer/.
- Only the object layer "entities" makes bodies: every object is dispatched on its `type`
  (P Services/TiledObjectToEntityService.cs:16-31; P Screens/GameScreen.cs:70).
  Tile layers ("solids", "deadlies", ...) are only drawn (P Screens/GameScreen.cs:92-107;
  785396d1 GameMain.cs:89-104).
- type "Solid": a static BasicCollisionBody at (x, y) with size (w, h) and origin (0,0)
  (P Entities/EntityFactory.cs:61-65; Components/BasicCollisionBody.cs:12), i.e. Tiled's
  rectangle => '#' on cells at least half covered. The walls at x=-32 and x=800 are outside
  the 25x15 grid and are dropped.
- type "Deadly": a static body tagged "Deadly" (P EntityFactory.cs:68-72); the player's handler
  sets HP to 0 and does NOT push out (P Entities/Components/PlayerCollisionHandler.cs:13-17)
  => '^' (not solid).
- type "BadGuy": a moving enemy (EnemyAi, P EntityFactory.cs:102-119) => not marked.
- type "Spawn": the player entity is created at the object's raw Tiled (x, y)
  (P TiledObjectToEntityService.cs:18; pipeline writes raw x/y,
  Source/MonoGame.Extended.Content.Pipeline/Tiled/TiledMapWriter.cs:157-158) and its
  32x32 body has origin (0.5,0.5) (P EntityFactory.cs:53), so the body is centred on (x, y):
  spawn point = (x, y + 16 - 1).
- No goal, one-way, ladder, slope or moving platform.

== Games.Platformer/test-map.tmx + tileset.tsx (25x15 tiles of 32 px) ==
Code = Source/Games/Platformer @ 1137b269c36b35b1b736559fd903c17eaeb9b37b ("G").
- Every tile layer is scanned and only GlobalIdentifier == 1 (flip flags cleared,
  Source/MonoGame.Extended.Tiled/TiledMapTile.cs:9) becomes a static 32x32 body
  (G GameMain.cs:49-65; EntityFactory.cs:78-87) => '#'. Other gids are drawn only.
- Player and enemies are hard-coded (G GameMain.cs:67-69: player at (100,240)), the map has
  no objects => spawn none, goal none.
"""
import base64
import os
import xml.etree.ElementTree as ET
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FLAGS = 0xE0000000
PRIO = "#/\\s=^H."


def put(grid, c, r, ch):
    if 0 <= r < len(grid) and 0 <= c < len(grid[0]):
        if PRIO.index(ch) < PRIO.index(grid[r][c]):
            grid[r][c] = ch


def mark_rect(grid, x, y, w, h, tw, th, ch):
    H, W = len(grid), len(grid[0])
    for r in range(H):
        for c in range(W):
            ox = min(x + w, (c + 1) * tw) - max(x, c * tw)
            oy = min(y + h, (r + 1) * th) - max(y, r * th)
            if ox > 0 and oy > 0 and ox * oy >= tw * th / 2.0 - 1e-6:
                put(grid, c, r, ch)


def layer_gids(layer, w, h):
    data = layer.find("data")
    enc, comp = data.get("encoding"), data.get("compression")
    if enc == "csv":
        vals = [int(v) for v in data.text.replace("\n", "").split(",") if v.strip()]
    elif enc == "base64":
        raw = base64.b64decode("".join(data.text.split()))
        if comp == "zlib" or comp == "gzip":
            raw = zlib.decompress(raw, 47)  # 47: auto-detect zlib/gzip header
        elif comp:
            raise SystemExit("unsupported compression " + comp)
        vals = [int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4)]
    else:
        vals = [int(t.get("gid", "0")) for t in data.findall("tile")]
    assert len(vals) == w * h, (len(vals), w, h)
    return vals


def write(path, header, spawn, goal, grid):
    lines = [header, "spawn " + spawn, "goal " + goal] + ["".join(r) for r in grid]
    with open(path + ".truth", "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def demo():
    path = os.path.join(HERE, "Demo.Platformer", "level-1.tmx")
    root = ET.parse(path).getroot()
    W, H = int(root.get("width")), int(root.get("height"))
    TW, TH = int(root.get("tilewidth")), int(root.get("tileheight"))
    grid = [["."] * W for _ in range(H)]
    spawn = "none"
    for og in root.findall("objectgroup"):
        if og.get("name") != "entities":
            continue
        for o in og.findall("object"):
            t = o.get("type")
            x, y = float(o.get("x")), float(o.get("y"))
            w, h = float(o.get("width", "0")), float(o.get("height", "0"))
            if t == "Solid":
                mark_rect(grid, x, y, w, h, TW, TH, "#")
            elif t == "Deadly":
                mark_rect(grid, x, y, w, h, TW, TH, "^")
            elif t == "Spawn":
                # 32x32 body centred on the raw (x, y)
                spawn = "%d,%d" % (int(x // TW), int((y + 16 - 1) // TH))
    write(path,
          "# level-1.tmx: object layer 'entities' type Solid rects=solid, Deadly rects=hazard, "
          "tile layers drawn only, from craftworkgames/MonoGame.Extended@4585f9a (map @785396d)",
          spawn, "none", grid)


def games():
    path = os.path.join(HERE, "Games.Platformer", "test-map.tmx")
    root = ET.parse(path).getroot()
    W, H = int(root.get("width")), int(root.get("height"))
    grid = [["."] * W for _ in range(H)]
    for layer in root.iter("layer"):
        lw, lh = int(layer.get("width")), int(layer.get("height"))
        for i, g in enumerate(layer_gids(layer, lw, lh)):
            if (g & ~FLAGS) == 1:
                put(grid, i % lw, i // lw, "#")
    write(path,
          "# test-map.tmx: every tile layer, only gid 1 is a solid body (others drawn only), "
          "spawn hard-coded, from craftworkgames/MonoGame.Extended@1137b26",
          "none", "none", grid)


if __name__ == "__main__":
    demo()
    games()
