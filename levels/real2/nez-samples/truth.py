#!/usr/bin/env python3
"""Ground truth for nez-samples/Platformer/tiledMap.tmx (40x30 tiles of 16 px).

Writes Platformer/tiledMap.tmx.truth next to the map. Standalone, stdlib only,
deterministic; run it from anywhere.

Code: prime31/Nez-Samples @ c2d0996fe021054ebe0d235a0984cbf4159d7b26 ("NS"),
whose `Nez` submodule is pinned to prime31/Nez @ d2e8695aa5faafbc21c539d9afc213f312a15039
("NZ"; SOURCE.md names 2862974e, a later descendant whose Tiled/mover code is the
same for everything used here).

Rules applied (the player moves with TiledMapMover, not with physics colliders):
- Collision layer: only the tile layer named "main":
  NS Nez.Samples/Scenes/Samples/Platformer/PlatformerScene.cs:37
  `new TiledMapMover(map.GetLayer<TmxLayer>("main"))` (also :31, the renderer's
  collisionLayerName). The layer "lava" is never read by code (render only).
- Any non-empty cell of "main" collides: NZ Nez.Portable/ECS/Components/Physics/
  TiledMapMover.cs:258-261 skips only null tiles; Layer.Runtime.cs:16-26 and
  Runtime/TiledMapLoader.cs:423-425 (gid 0 never gets a TmxLayerTile).
  Plain tile -> whole-cell wall, TiledMapMover.cs:376-395  => '#'.
  The per-tile <objectgroup> shapes (tile 0 rect, tile 2 triangle) are never read
  by TiledMapMover (no ObjectGroups use in that file).
- One-way: tileset-tile property nez:isOneWayPlatform (TiledTypes/TilesetTile.cs:62-63),
  tested first in TestTileCollision, top edge only (TiledMapMover.cs:338-348)  => '='.
- Slopes: nez:isSlope + nez:slopeTopLeft/Right (TilesetTile.cs:59-69; doc at
  TiledMapMover.cs:17-23: pixels down from the tile top; "|\\" = TL 0, TR 15).
  Flip bits are read in TiledTypes/Layer.cs:85-99 and applied in
  TiledTypes/TmxLayerTileExt.cs:24-50 (H flip swaps left/right; V flip mirrors
  (tileWidth-1)-v; H+V keeps them). Effective heights {TL,TR} = {0, tile-1}:
  TL 0 & TR 15 = high on the left => '\\' (rising to the left);
  TL 15 & TR 0 => '/'; any other slope => 's'.
- Hazard: polygons of object group "danger-zone" become trigger PolygonColliders at
  the object's position (NS PlatformerScene.cs:54-66; NZ PolygonCollider.cs:17-29
  re-centres verts and moves the offset, so the shape stays where Tiled puts it;
  points relative to the object, TiledMapLoader.cs:228-238,517-520). Touching one
  teleports the player back to the spawn (NS PlatformerDangerZone.cs:16-20), fired
  by Caveman's ColliderTriggerHelper (NS Caveman.cs:22,39,171)  => '^' for cells
  at least half covered.
- Spawn: object "spawn" of group "objects"; its x,y (top-left) becomes the entity
  position (NS PlatformerScene.cs:24-25,34) and the player's BoxCollider(-8,-16,16,32)
  (:36) is centred on it, so the spawn point is (x, y + 16 - 1).
- Goal: none (collectibles are pickups, PlatformerScene.cs:40-52).
Priority when two apply: solid > slope > one-way > hazard.
"""
import os
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
MAP = os.path.join(HERE, "Platformer", "tiledMap.tmx")
FLIP_H, FLIP_V, FLIP_D = 0x80000000, 0x40000000, 0x20000000
PRIO = "#/\\s=^H."


def clip_area(poly, x0, y0, x1, y1):
    """Area of polygon `poly` inside rectangle [x0,x1]x[y0,y1] (Sutherland-Hodgman)."""
    def clip(pts, inside, inter):
        out = []
        n = len(pts)
        for i in range(n):
            cur, prev = pts[i], pts[i - 1]
            if inside(cur):
                if not inside(prev):
                    out.append(inter(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(inter(prev, cur))
        return out

    def ix(a, b, x):
        t = (x - a[0]) / (b[0] - a[0])
        return (x, a[1] + t * (b[1] - a[1]))

    def iy(a, b, y):
        t = (y - a[1]) / (b[1] - a[1])
        return (a[0] + t * (b[0] - a[0]), y)

    pts = list(poly)
    for inside, inter in (
        (lambda p: p[0] >= x0, lambda a, b: ix(a, b, x0)),
        (lambda p: p[0] <= x1, lambda a, b: ix(a, b, x1)),
        (lambda p: p[1] >= y0, lambda a, b: iy(a, b, y0)),
        (lambda p: p[1] <= y1, lambda a, b: iy(a, b, y1)),
    ):
        if not pts:
            return 0.0
        pts = clip(pts, inside, inter)
    if len(pts) < 3:
        return 0.0
    s = 0.0
    for i in range(len(pts)):
        a, b = pts[i - 1], pts[i]
        s += a[0] * b[1] - b[0] * a[1]
    return abs(s) / 2.0


def put(grid, c, r, ch):
    if 0 <= r < len(grid) and 0 <= c < len(grid[0]):
        if PRIO.index(ch) < PRIO.index(grid[r][c]):
            grid[r][c] = ch


def main():
    root = ET.parse(MAP).getroot()
    W, H = int(root.get("width")), int(root.get("height"))
    TW, TH = int(root.get("tilewidth")), int(root.get("tileheight"))

    # tileset tile properties by gid (only embedded tilesets in this map)
    props = {}
    for ts in root.findall("tileset"):
        first = int(ts.get("firstgid"))
        for t in ts.findall("tile"):
            p = {}
            for pr in t.findall("properties/property"):
                p[pr.get("name")] = pr.get("value")
            props[first + int(t.get("id"))] = p

    grid = [["."] * W for _ in range(H)]
    layer = [l for l in root.findall("layer") if l.get("name") == "main"][0]
    data = layer.find("data")
    assert data.get("encoding") == "csv"
    raw = [int(v) for v in data.text.replace("\n", "").split(",") if v.strip()]
    assert len(raw) == W * H
    for i, rg in enumerate(raw):
        gid = rg & ~(FLIP_H | FLIP_V | FLIP_D)
        if gid == 0:
            continue
        c, r = i % W, i // W
        p = props.get(gid, {})
        if p.get("nez:isOneWayPlatform", "false").lower() == "true":
            put(grid, c, r, "=")
        elif p.get("nez:isSlope", "false").lower() == "true":
            tl = int(p.get("nez:slopeTopLeft", "0"))
            tr = int(p.get("nez:slopeTopRight", "0"))
            hf, vf = bool(rg & FLIP_H), bool(rg & FLIP_V)
            if hf and vf:
                etl, etr = tl, tr
            elif hf:
                etl, etr = tr, tl
            elif vf:
                etl, etr = (TW - 1) - tl, (TW - 1) - tr
            else:
                etl, etr = tl, tr
            if (etl, etr) == (0, TW - 1):
                put(grid, c, r, "\\")
            elif (etl, etr) == (TW - 1, 0):
                put(grid, c, r, "/")
            else:
                put(grid, c, r, "s")
        else:
            put(grid, c, r, "#")

    # hazards: danger-zone polygons (rectangles too, though this map has none)
    for og in root.findall("objectgroup"):
        if og.get("name") != "danger-zone":
            continue
        for o in og.findall("object"):
            ox, oy = float(o.get("x")), float(o.get("y"))
            pg = o.find("polygon")
            if pg is None:
                continue
            poly = []
            for pair in pg.get("points").split():
                px, py = pair.split(",")
                poly.append((ox + float(px), oy + float(py)))
            for r in range(H):
                for c in range(W):
                    a = clip_area(poly, c * TW, r * TH, (c + 1) * TW, (r + 1) * TH)
                    if a >= TW * TH / 2.0 - 1e-6:
                        put(grid, c, r, "^")

    spawn = "none"
    for og in root.findall("objectgroup"):
        if og.get("name") != "objects":
            continue
        for o in og.findall("object"):
            if o.get("name") == "spawn":
                x, y = float(o.get("x")), float(o.get("y"))
                # BoxCollider(-8,-16,16,32) centred on (x,y): centre x, bottom y+16
                spawn = "%d,%d" % (int(x // TW), int((y + 16 - 1) // TH))

    out = [
        "# tiledMap.tmx: TiledMapMover on layer 'main' (non-empty=solid, nez:isOneWayPlatform, "
        "nez:isSlope with flip bits), 'danger-zone' polygons=hazard, from prime31/Nez-Samples@c2d0996 "
        "(Nez@d2e8695)",
        "spawn " + spawn,
        "goal none",
    ] + ["".join(row) for row in grid]
    with open(MAP + ".truth", "w", newline="\n") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
