#!/usr/bin/env python3
"""Ground truth for flixel-demos/level.tmx, derived from the game's own code.

Game: HaxeFlixel/flixel-demos @ c3151747b58ec2823d120127061a824c742c2c1c,
Editors/TiledEditor (source/TiledLevel.hx, source/PlayState.hx), which loads
assets/tiled/level.tmx (the file copied here).  Library code read at the
flixel / flixel-addons commits current on that date:
HaxeFlixel/flixel @ 6cd83e7, HaxeFlixel/flixel-addons @ 0d3b597.

Rules applied:

* Solid: TiledLevel.hx:55-119 builds one FlxTilemapExt per *tile* layer with
  `loadMapFromArray(tileLayer.tileArray, width, height, ..., OFF,
  tileSet.firstGID, 1, 1)` (:84), i.e. collideIndex = 1; layers whose
  properties contain `nocollide` go to backgroundLayer, all others to
  collidableTileLayers (:107-118), which collideWithLevel() separates the
  player from (:255-270, PlayState.hx:85).  In flixel
  flixel/tile/FlxTilemap.hx:142-146 every tile index >= collideIndex gets
  allowCollisions = ANY (full solid), and tileArray holds the gid with flip
  bits stripped, 0 when the gid is in no tileset
  (flixel-addons flixel/addons/editors/tiled/TiledTileLayer.hx:131-146).
  So: a cell is solid when any layer without `nocollide` has a gid there.
  (Here: `Foreground`; `Background` has nocollide.)

* Hazard: object of type `floor` becomes an FlxObject(x, y, w, h)
  (TiledLevel.hx:223-225); PlayState.hx:89-93 resets the level ("you died")
  when the player overlaps it.  It is an area: it marks cells it covers at
  least half of.

* Spawn: object of type `player_start` -> FlxSprite(x, y) with a 32x32
  graphic (TiledLevel.hx:212-221; y -= tile height only when the object has
  a gid, :206-208).  Cell of (x + 16, y + 32 - 1).

* Goal: object of type `exit` -> 32x32 FlxSprite at (x, y) (:232-238);
  overlapping it wins (PlayState.hx:87, :96-101).  It starts with
  exists = false and appears once every coin is taken (PlayState.hx:107-111).

* Coins (type `coin`) are pickups: nothing.  Object layer `images` and the
  image layer are decoration (TiledLevel.hx:161-199, :242-253).

Run from anywhere: python3 truth.py -> rewrites level.tmx.truth next to it.
"""
import base64
import gzip
import os
import struct
import xml.etree.ElementTree as ET
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
MAP = "level.tmx"
REPO = "HaxeFlixel/flixel-demos"
COMMIT = "c315174"
FLIPS = 0x80000000 | 0x40000000 | 0x20000000


def layer_gids(layer, n):
    d = layer.find("data")
    enc = d.get("encoding")
    comp = d.get("compression")
    if enc == "base64":
        raw = base64.b64decode(d.text.strip())
        if comp == "zlib":
            raw = zlib.decompress(raw)
        elif comp == "gzip":
            raw = gzip.decompress(raw)
        gids = list(struct.unpack("<%dI" % (len(raw) // 4), raw))
    elif enc == "csv":
        gids = [int(v) for v in d.text.replace("\n", "").split(",") if v.strip()]
    else:
        gids = [int(t.get("gid", "0")) for t in d.findall("tile")]
    assert len(gids) == n, (layer.get("name"), len(gids), n)
    return gids


def props(el):
    p = el.find("properties")
    return {} if p is None else {q.get("name"): q.get("value") for q in p.findall("property")}


def covered_cells(x, y, w, h, tw, th, width, height):
    """Cells covered at least half by the rectangle (x, y, w, h)."""
    out = []
    for r in range(height):
        for c in range(width):
            ox = min(x + w, (c + 1) * tw) - max(x, c * tw)
            oy = min(y + h, (r + 1) * th) - max(y, r * th)
            if ox > 0 and oy > 0 and ox * oy * 2 >= tw * th:
                out.append((c, r))
    return out


def main():
    root = ET.parse(os.path.join(HERE, MAP)).getroot()
    W, H = int(root.get("width")), int(root.get("height"))
    TW, TH = int(root.get("tilewidth")), int(root.get("tileheight"))
    ranges = []
    for ts in root.findall("tileset"):
        ranges.append((int(ts.get("firstgid")), int(ts.get("tilecount")), int(ts.get("tileheight"))))

    def owner(gid):
        g = gid & ~FLIPS
        for first, count, th in ranges:
            if first <= g < first + count:
                return th
        return None

    grid = [["."] * W for _ in range(H)]
    hazard = set()
    spawn = None
    goals = []

    # objects (TiledLevel.loadObjects only reads the layer named "objects")
    for og in root.findall("objectgroup"):
        if og.get("name") != "objects":
            continue
        for o in og.findall("object"):
            typ = (o.get("type") or o.get("class") or "").lower()
            x = int(float(o.get("x", 0)))  # `var x:Int = o.x`
            y = int(float(o.get("y", 0)))
            if o.get("gid") is not None:
                y -= owner(int(o.get("gid")))
            w = float(o.get("width", 0))
            h = float(o.get("height", 0))
            if typ == "player_start":
                spawn = ((x + 16) // TW, (y + 32 - 1) // TH)
            elif typ == "floor":
                hazard.update(covered_cells(x, y, w, h, TW, TH, W, H))
            elif typ == "exit":
                goals.extend(covered_cells(x, y, 32, 32, TW, TH, W, H))

    for c, r in hazard:
        grid[r][c] = "^"

    for layer in root.findall("layer"):
        if "nocollide" in props(layer):
            continue
        gids = layer_gids(layer, int(layer.get("width")) * int(layer.get("height")))
        lw = int(layer.get("width"))
        for r in range(H):
            for c in range(W):
                g = gids[r * lw + c]
                if g and owner(g) is not None:  # tileArray value >= collideIndex 1
                    grid[r][c] = "#"

    out = [
        "# %s: tiles of every tile layer without 'nocollide' are solid, object type 'floor' kills, "
        "'player_start' spawn, 'exit' goal, from %s@%s" % (MAP, REPO, COMMIT),
        "spawn %d,%d" % spawn if spawn else "spawn none",
        ("goal " + " ".join("%d,%d" % g for g in sorted(goals, key=lambda t: (t[1], t[0]))))
        if goals else "goal none",
    ] + ["".join(r) for r in grid]
    with open(os.path.join(HERE, MAP + ".truth"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
