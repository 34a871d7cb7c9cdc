#!/usr/bin/env python3
"""Ground truth for the Super Mario Land remake maps (maps/level1.json,
maps/level1room1.json, maps/level1room2.json).

Game: github.com/digitsensitive/phaser3-typescript, commit
05f7c8c7796de8a28a7575d6e0425c1513bbd3a2, folder src/games/super-mario-land/src
(paths below are relative to it). Engine: Phaser 3.80.1 Arcade physics
(src/games/super-mario-land/package.json).

Rules applied, each as the game's code does it:

* Solid tiles ('#'): scenes/game-scene.ts:49-58 creates the tile layer named
  'foregroundLayer' and calls setCollisionByProperty({ collide: true }); the
  player collides with that layer at :97. The layer 'backgroundLayer'
  (:42-47) is never collided. The map says "version": 1, so Phaser (npm
  phaser@3.80.1, src/tilemaps/parsers/tiled/ParseTilesets.js:42,117-122) takes
  the legacy Tiled-1.x `tileproperties` dictionary (keyed by local tile id) as
  is; AssignTileProperties.js:56-59 (called from ParseJSONTiled.js:74) copies
  tileProperties[tile.index - firstgid] onto each tile, and
  components/SetCollisionByProperty.js:43,54 tests
  tile.properties.collide === true (strict).
  So a cell is solid when its foreground gid (flip bits masked) is non-zero and
  tileproperties[str(gid - firstgid)]['collide'] is the boolean true.
* Solid objects ('#'): objects of type 'brick' and 'box' in the object layer
  'objects' (game-scene.ts:161, :201-223) become 8x8 sprites with origin (0,0)
  at the object's x,y (objects/brick.ts:20-30, objects/box.ts:30-43;
  spritesheet frames are 8x8, assets/pack.json), immovable, no gravity, and
  the player collides with them (game-scene.ts:101-109). State at level start:
  all present. (Bricks are destroyed when hit from below, brick.ts:32-49;
  boxes stay solid after being bumped, box.ts:47-58.) An object marks a cell
  when it covers at least half of the cell.
* Moving platforms (types platformMovingUpAndDown / platformMovingLeftAndRight,
  game-scene.ts:237-271, objects/platform.ts:22-42) are dynamic: NOT marked.
* No one-way, ladder or slope exists in this game. Hazard: only falling below
  the 144-px canvas kills (objects/mario.ts:89-93, config.ts:10-11); that is
  below the map (18 rows x 8 px = 144 px), so no cell is marked '^'. Enemies
  (goomba, koopa) are objects and not marked.
* Spawn: an object of type 'player' must exist, but Mario is created at
  registry 'spawn' (game-scene.ts:181-188), not at the object. The registry
  starts at {x:12, y:44} (scenes/menu-scene.ts:11-17, :49) for level1, and a
  portal sets it to the portal's marioSpawnX/Y before loading the room
  (game-scene.ts:355-371); both room portals in level1.json give (16,16).
  (x,y) is the sprite centre (origin 0.5, mario.ts:44; 16x16 frames,
  pack.json); the small body is 6x12 at offset (6,4) (mario.ts:181-184; Phaser
  physics/arcade/Body.js:1060, body.x = x + (offset.x - displayOriginX)), so
  body = [x-2, x+4) x [y-4, y+8). Spawn cell = (floor((x+1)/8),
  floor((y+8-1)/8)). The 'player' object itself (level1: 12,44 8x14) is NOT
  where Mario appears: the code reuses its numbers as a sprite centre, so the
  truth uses registry.spawn (level1 -> cell 1,6; a bottom-centre reading of the
  object would give 2,7).
* Goal: objects of type 'portal' named 'exit' (game-scene.ts:164-178,
  :372-375; direction 'none', so any overlap ends the level). The Portal zone
  gets width/height swapped (game-scene.ts:170-171) but objects/portal.ts:31
  swaps them back for the body, so the trigger is the Tiled rectangle. Rooms
  have no 'exit' portal (their only way out is a portal named 'level1' back to
  the main map), so their goal is 'none'.

Run: python3 truth.py  (from anywhere). Writes maps/<name>.json.truth.
"""
import base64
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "digitsensitive/phaser3-typescript@05f7c8c"
MAPS = ["maps/level1.json", "maps/level1room1.json", "maps/level1room2.json"]
FLIP_MASK = 0x1FFFFFFF  # clear Tiled's flip bits (bits 29-31)

# Where the game puts Mario when this map starts (sprite centre, px).
# level1: registry default (menu-scene.ts:49). Rooms: the marioSpawnX/Y of the
# level1 portal whose name is the room's key (pack.json: level1Room1,
# level1Room2), read from level1.json below.
ROOM_KEY = {"maps/level1room1.json": "level1Room1", "maps/level1room2.json": "level1Room2"}


def layer_gids(layer):
    data = layer["data"]
    if isinstance(data, list):
        return [g & FLIP_MASK for g in data]
    raw = base64.b64decode(data)
    comp = layer.get("compression", "")
    if comp == "zlib" or comp == "gzip":
        raw = zlib.decompress(raw, 47)
    n = len(raw) // 4
    return [g & FLIP_MASK for g in struct.unpack("<%dI" % n, raw)]


def collide_gids(tilesets):
    """gids whose legacy tileproperties (or 1.2+ tiles[].properties) have collide === true."""
    out = set()
    for ts in tilesets:
        first = ts["firstgid"]
        for sid, props in (ts.get("tileproperties") or {}).items():
            if props.get("collide") is True:
                out.add(first + int(sid))
        tiles = ts.get("tiles")
        if isinstance(tiles, list):
            for t in tiles:
                for p in t.get("properties", []) or []:
                    if p.get("name") == "collide" and p.get("value") is True:
                        out.add(first + int(t["id"]))
    return out


def mark_rect(grid, x, y, w, h, tw, th, ch):
    W, H = len(grid[0]), len(grid)
    for r in range(H):
        for c in range(W):
            ox = min(x + w, (c + 1) * tw) - max(x, c * tw)
            oy = min(y + h, (r + 1) * th) - max(y, r * th)
            if ox > 0 and oy > 0 and ox * oy * 2 >= tw * th:
                grid[r][c] = ch


def cells_rect(x, y, w, h, tw, th, W, H):
    out = []
    for r in range(H):
        for c in range(W):
            ox = min(x + w, (c + 1) * tw) - max(x, c * tw)
            oy = min(y + h, (r + 1) * th) - max(y, r * th)
            if ox > 0 and oy > 0 and ox * oy * 2 >= tw * th:
                out.append((c, r))
    return out


def objects_of(m):
    for layer in m["layers"]:
        if layer["type"] == "objectgroup" and layer["name"] == "objects":
            return layer["objects"]
    return []


def spawn_for(rel):
    if rel == "maps/level1.json":
        return (12, 44)
    main = json.load(open(os.path.join(HERE, "maps/level1.json")))
    for o in objects_of(main):
        if o.get("type") == "portal" and o.get("name") == ROOM_KEY[rel]:
            p = o.get("properties") or {}
            return (p["marioSpawnX"], p["marioSpawnY"])
    return None


def build(rel):
    m = json.load(open(os.path.join(HERE, rel)))
    W, H, tw, th = m["width"], m["height"], m["tilewidth"], m["tileheight"]
    grid = [["."] * W for _ in range(H)]
    solid = collide_gids(m["tilesets"])
    fg = [l for l in m["layers"] if l["type"] == "tilelayer" and l["name"] == "foregroundLayer"][0]
    gids = layer_gids(fg)
    for i, g in enumerate(gids):
        if g and g in solid:
            grid[i // W][i % W] = "#"
    for o in objects_of(m):
        if o.get("type") in ("brick", "box"):
            # sprite origin (0,0) at object x,y; body 8x8 (frame 8x8 => no centring offset)
            mark_rect(grid, o["x"], o["y"], 8, 8, tw, th, "#")
    goals = []
    for o in objects_of(m):
        if o.get("type") == "portal" and o.get("name") == "exit":
            for cell in cells_rect(o["x"], o["y"], o["width"], o["height"], tw, th, W, H):
                if cell not in goals:
                    goals.append(cell)
    sp = spawn_for(rel)
    lines = ["# %s: solid = foregroundLayer tiles with collide===true + brick/box objects (8x8); "
             "spawn = registry.spawn (sprite centre, 6x12 body at offset 6,4); goal = 'exit' portals, from %s"
             % (rel, REPO)]
    if sp:
        x, y = sp
        lines.append("spawn %d,%d" % (int((x + 1) // tw), int((y + 8 - 1) // th)))
    else:
        lines.append("spawn none")
    lines.append("goal " + " ".join("%d,%d" % c for c in goals) if goals else "goal none")
    lines += ["".join(row) for row in grid]
    with open(os.path.join(HERE, rel + ".truth"), "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    for rel in MAPS:
        build(rel)
