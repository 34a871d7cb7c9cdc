#!/usr/bin/env python3
"""Ground truth for SunnyLand's assets/maps/level1.tmj (+ tileset.tsj, prop.tsj,
actor.tsj).

Game: github.com/WispSnow/SunnyLand, commit
21f9436c41a8397fca64438b57477396992b4eb4 (C++/SDL3, own engine).

Rules applied, each as the game's code does it:

* Collision layer: only the tile layer named 'main' is registered with the
  physics engine (src/game/scene/game_scene.cpp:130-141). 'back' and the image
  layers are drawn only.
* One TileInfo per cell: LevelLoader::loadTileLayer pushes getTileInfoByGid(gid)
  for each entry of the layer's data (src/engine/scene/level_loader.cpp:124-151)
  and TileLayerComponent stores them row-major, index y*width+x
  (src/engine/component/tilelayer_component.h:59, .cpp:65-82). An image-collection
  prop tile larger than 16x16 (block-big, big-crate, face-block, platform-long)
  is only DRAWN over its neighbours (bottom-left aligned, tilelayer_component.cpp
  :47-50); its type applies to its anchor cell only, and its per-tile collision
  rectangle is not used for tile layers. (In level1.tmj the author filled the
  other cells under each multi-cell solid prop with gid 1 = tileset tile 0,
  solid: true, so those props end up solid over their whole image anyway.)
* Tileset lookup: the tileset with the largest firstgid <= gid, local id =
  gid - firstgid, tile found by "id" in "tiles" (level_loader.cpp:474-548). gid 0
  is EMPTY. (No gid in this map carries flip bits.)
* Tile type: LevelLoader::getTileType (level_loader.cpp:415-459) walks the tile's
  "properties" array IN ORDER and returns on the FIRST property named solid,
  slope, unisolid, hazard or ladder: solid true -> SOLID, unisolid true ->
  UNISOLID, hazard true -> HAZARD, ladder true -> LADDER, a false value -> NORMAL;
  slope "0_1","1_0","0_2","2_0","2_1","1_2" -> SLOPE_*; anything else NORMAL.
  NORMAL and EMPTY cells do not collide.
* SOLID '#': blocks on x (physics_engine.cpp:150,178), falling (:206) and rising
  (:253).
* UNISOLID '=': stops only a falling body (physics_engine.cpp:206-211).
* Slopes: surface height from PhysicsEngine::getTileHeightAtWidth
  (physics_engine.cpp:324-343): 0_1 = rel_x*T (left 0, right a full tile),
  1_0 = (1-rel_x)*T, 0_2 = rel_x*T/2, 2_0 = (1-rel_x)*T/2,
  2_1 = T/2 + rel_x*T/2, 1_2 = T/2 + (1-rel_x)*T/2 (enum comments:
  tilelayer_component.h:28-33, "1" = a whole tile, "2" = half a tile).
  So 0_1 -> '/' (45 degrees, rising to the right), 1_0 -> '\', and the four
  half-height ones (0_2, 2_0, 2_1, 1_2) -> 's'.
* LADDER 'H': overlapping a ladder cell lets the player climb
  (physics_engine.cpp:380-381). The top cell of a ladder (a LADDER cell whose
  cell above is not LADDER) is also a floor for a falling, non-climbing body
  (physics_engine.cpp:213-226) and nothing stops a rising body there, so it is
  a one-way platform and, by precedence (one-way before ladder), written '='.
* HAZARD '^' from tiles: the player's AABB overlapping a HAZARD cell of 'main'
  hurts (physics_engine.cpp:345-393, game_scene.cpp:281-296); the whole cell
  counts, not the drawn spike image.
* HAZARD '^' from tile objects: a tile object (gid != 0) whose tile is HAZARD
  and has no 'tag' gets tag "hazard" (level_loader.cpp:260-268) and, not being
  SOLID, a collider = the tile's first non-empty objectgroup rectangle
  (level_loader.cpp:250-258, :399-413), placed at (x, y - height) + rect offset
  (level_loader.cpp:211-213; offset not scaled, collider_component.cpp:95-107,
  size scaled by width/imagewidth). Touching it hurts (game_scene.cpp:258-265).
  Marked where that rectangle covers at least half a cell. A tile object whose
  tile is SOLID would become a solid body the size of its image
  (level_loader.cpp:242-249); there are none in this map.
* Precedence when a cell is two things: solid, slope, one-way, hazard, ladder.
* Spawn: the object named 'player' (game_scene.cpp:156-163), a tile object, so
  its y is its bottom (level_loader.cpp:213); its collider is the foxy tile's
  rectangle (actor.tsj: 11x19 at offset 11,13). Spawn cell = (floor(centre x/16),
  floor((bottom - 1)/16)).
* Goal: rectangle objects without gid (point/ellipse/polygon are skipped,
  level_loader.cpp:164-202) become triggers with their 'tag' property; touching
  one tagged 'next_level' loads assets/maps/<name>.tmj (game_scene.cpp:266-271,
  :362-369, game_scene.h:61), and touching one named 'win' ends the game
  (game_scene.cpp:272-277). Every cell such a rectangle covers at least half of
  is a goal cell.
* Not marked: enemies (eagle, frog, opossum: tag 'enemy', they move), items
  (gem, fruit), decorative props. There are no moving platforms.

Run: python3 truth.py  (from anywhere). Writes assets/maps/level1.tmj.truth.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "WispSnow/SunnyLand@21f9436"
MAPS = ["assets/maps/level1.tmj"]

SLOPE_CHAR = {"0_1": "/", "1_0": "\\", "0_2": "s", "2_0": "s", "2_1": "s", "1_2": "s"}


def tile_type(tile_json):
    """level_loader.cpp:415-459: first matching property decides."""
    if tile_json is None:
        return "NORMAL"
    for p in tile_json.get("properties", []) or []:
        name = p.get("name")
        if name == "solid":
            return "SOLID" if p.get("value", False) else "NORMAL"
        if name == "slope":
            v = p.get("value", "")
            return ("SLOPE_" + v) if v in SLOPE_CHAR else "NORMAL"
        if name == "unisolid":
            return "UNISOLID" if p.get("value", False) else "NORMAL"
        if name == "hazard":
            return "HAZARD" if p.get("value", False) else "NORMAL"
        if name == "ladder":
            return "LADDER" if p.get("value", False) else "NORMAL"
    return "NORMAL"


class Tilesets:
    def __init__(self, map_path, m):
        self.sets = []
        for ts in m["tilesets"]:
            if "source" in ts:
                with open(os.path.join(os.path.dirname(map_path), ts["source"])) as f:
                    data = json.load(f)
            else:
                data = ts
            self.sets.append((ts["firstgid"], data))
        self.sets.sort(key=lambda s: s[0])

    def tile_json(self, gid):
        """(tileset json, tile json or None) as level_loader.cpp:474-575 finds them."""
        best = None
        for first, data in self.sets:
            if first <= gid:
                best = (first, data)
        if best is None:
            return None, None
        first, data = best
        local = gid - first
        for t in data.get("tiles", []) or []:
            if t.get("id", 0) == local:
                return data, t
        return data, None

    def type_of(self, gid):
        if gid == 0:
            return "EMPTY"
        data, t = self.tile_json(gid)
        if data is None:
            return "EMPTY"
        if "image" not in data and (t is None or "image" not in t):
            return "EMPTY"  # image collection without that tile: empty TileInfo
        return tile_type(t)


def frac_cells(x, y, w, h, T, W, H):
    out = []
    for r in range(H):
        for c in range(W):
            ox = min(x + w, (c + 1) * T) - max(x, c * T)
            oy = min(y + h, (r + 1) * T) - max(y, r * T)
            if ox > 0 and oy > 0 and ox * oy * 2 >= T * T:
                out.append((c, r))
    return out


def collider_rect(t):
    og = (t or {}).get("objectgroup") or {}
    for o in og.get("objects", []) or []:
        if o.get("width", 0) > 0 and o.get("height", 0) > 0:
            return o["x"], o["y"], o["width"], o["height"]
    return None


def all_objects(layers):
    for l in layers:
        if l.get("type") == "group":
            yield from all_objects(l.get("layers", []))
        elif l.get("type") == "objectgroup" and l.get("visible", True):
            for o in l["objects"]:
                yield o


def build(rel):
    path = os.path.join(HERE, rel)
    m = json.load(open(path))
    W, H, T = m["width"], m["height"], m["tilewidth"]
    ts = Tilesets(path, m)
    main = [l for l in m["layers"] if l.get("type") == "tilelayer" and l.get("name") == "main"][0]
    types = [ts.type_of(g) for g in main["data"]]

    def at(c, r):
        if 0 <= c < W and 0 <= r < H:
            return types[r * W + c]
        return "EMPTY"

    rank = {"#": 5, "/": 4, "\\": 4, "s": 4, "=": 3, "^": 2, "H": 1, ".": 0}
    grid = [["."] * W for _ in range(H)]

    def put(c, r, ch):
        if rank[ch] > rank[grid[r][c]]:
            grid[r][c] = ch

    for r in range(H):
        for c in range(W):
            t = at(c, r)
            if t == "SOLID":
                put(c, r, "#")
            elif t.startswith("SLOPE_"):
                put(c, r, SLOPE_CHAR[t[6:]])
            elif t == "UNISOLID":
                put(c, r, "=")
            elif t == "HAZARD":
                put(c, r, "^")
            elif t == "LADDER":
                put(c, r, "H")
                if at(c, r - 1) != "LADDER":
                    put(c, r, "=")  # ladder top: floor when not climbing

    spawn = None
    goals = []
    for o in all_objects(m["layers"]):
        gid = o.get("gid", 0)
        if gid:
            data, t = ts.tile_json(gid)
            x, y, w, h = o["x"], o["y"] - o["height"], o["width"], o["height"]
            typ = tile_type(t) if t is not None else "NORMAL"
            tag = None
            for p in (t or {}).get("properties", []) or []:
                if p.get("name") == "tag":
                    tag = p.get("value")
            if o.get("name") == "player" and spawn is None:
                rect = collider_rect(t)
                if rect:
                    sx = w / t.get("width", t.get("imagewidth", w))
                    sy = h / t.get("height", t.get("imageheight", h))
                    bx, by = x + rect[0], y + rect[1]
                    bw, bh = rect[2] * sx, rect[3] * sy
                else:
                    bx, by, bw, bh = x, y, w, h
                spawn = (int((bx + bw / 2) // T), int((by + bh - 1) // T))
            if typ == "SOLID":
                for c, r in frac_cells(x, y, w, h, T, W, H):
                    put(c, r, "#")
            elif typ == "HAZARD" and tag is None:
                rect = collider_rect(t)
                if rect:
                    sx = w / t.get("width", t.get("imagewidth", w))
                    sy = h / t.get("height", t.get("imageheight", h))
                    for c, r in frac_cells(x + rect[0], y + rect[1], rect[2] * sx, rect[3] * sy, T, W, H):
                        put(c, r, "^")
        else:
            if o.get("point") or o.get("ellipse") or o.get("polygon"):
                continue
            tag = None
            for p in o.get("properties", []) or []:
                if p.get("name") == "tag":
                    tag = p.get("value")
            if tag == "next_level" or o.get("name") == "win":
                for cell in frac_cells(o["x"], o["y"], o["width"], o["height"], T, W, H):
                    if cell not in goals:
                        goals.append(cell)

    lines = ["# %s: 'main' layer, one tile type per cell from the first of solid/slope/unisolid/hazard/ladder "
             "props (prop tiles count in their anchor cell only; 0_1/1_0 are the 45-degree slopes, ladder tops "
             "are floors), hazard tile objects, next_level/win triggers, from %s" % (rel, REPO)]
    lines.append("spawn %d,%d" % spawn if spawn else "spawn none")
    lines.append("goal " + " ".join("%d,%d" % c for c in goals) if goals else "goal none")
    lines += ["".join(row) for row in grid]
    with open(path + ".truth", "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    for rel in MAPS:
        build(rel)
