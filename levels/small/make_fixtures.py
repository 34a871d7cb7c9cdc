#!/usr/bin/env python3
"""Writes the Tiled (TMX/TSX/TMJ/TSJ) and PNG twins of small.txt.

Run from this directory: python3 make_fixtures.py. Standard library only.
Tileset: tile 0 solid (bool property), 1 TileType=Platform (one-way via
mapping.json), 2 class Spikes (hazard via mapping.json), 3 TileType=Decor.
"""
import base64, json, struct, zlib

ROWS = [l for l in open("small.txt").read().split("\n") if l]
W, H, T = len(ROWS[0]), len(ROWS), 16
GID = {"#": 1, "=": 2, "^": 3}
FLIP_H, FLIP_V = 0x80000000, 0x40000000

def gid(ch, c, r):
    g = GID.get(ch, 0)
    # Flip some solid tiles: the loaders must strip the flags.
    if g == 1 and (c + r) % 3 == 0:
        g |= FLIP_H
    if g == 1 and (c + r) % 5 == 0:
        g |= FLIP_V
    return g

GRID = [[gid(ch, c, r) for c, ch in enumerate(row)] for r, row in enumerate(ROWS)]
SPAWN = [(c, r) for r, row in enumerate(ROWS) for c, ch in enumerate(row) if ch == "S"][0]
GOAL = [(c, r) for r, row in enumerate(ROWS) for c, ch in enumerate(row) if ch == "G"][0]
# A decor layer, drawn over everything: solid must win the merge.
DECOR = [[4 if (c * 7 + r) % 4 == 0 else 0 for c in range(W)] for r in range(H)]

TILES_XML = """ <tile id="0"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 <tile id="1"><properties><property name="TileType" value="Platform"/></properties></tile>
 <tile id="2" type="Spikes"/>
 <tile id="3"><properties><property name="TileType" value="Decor"/></properties></tile>
"""
TSX_HEAD = '<tileset version="1.10" name="small" tilewidth="16" tileheight="16" tilecount="4" columns="4">\n <image source="small.png" width="64" height="16"/>\n'

def objects_xml(dx=0):
    sx, sy = SPAWN[0] * T + 8 + dx, SPAWN[1] * T + 15
    gx, gy = GOAL[0] * T + dx, GOAL[1] * T
    return f""" <objectgroup id="3" name="Objects">
  <object id="1" name="start" type="PlayerSpawnPoint" x="{sx}" y="{sy}"><point/></object>
  <object id="2" name="exit" type="LevelCompleteTrigger" x="{gx}" y="{gy}" width="16" height="16"/>
  <object id="3" name="enemy" type="Slime" x="40" y="40" width="16" height="16"/>
 </objectgroup>
"""

def csv(grid):
    return ",\n".join(",".join(str(g) for g in row) for row in grid)

def b64(grid, compress=False):
    raw = b"".join(struct.pack("<I", g) for row in grid for g in row)
    return base64.b64encode(zlib.compress(raw) if compress else raw).decode()

open("small.tsx", "w").write('<?xml version="1.0" encoding="UTF-8"?>\n' + TSX_HEAD + TILES_XML + "</tileset>\n")

# Finite TMX, CSV, external tileset, two tile layers.
open("small.tmx", "w").write(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{W}" height="{H}" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" source="small.tsx"/>
 <layer id="1" name="Ground" width="{W}" height="{H}">
  <data encoding="csv">
{csv(GRID)}
</data>
 </layer>
 <layer id="2" name="Decor" width="{W}" height="{H}">
  <data encoding="csv">
{csv(DECOR)}
</data>
 </layer>
{objects_xml()}</map>
""")

# Infinite TMX: the level sits 16 tiles left of the origin, base64+zlib chunks,
# embedded tileset.
chunk = [[0] * 16 for _ in range(16)]
for r in range(H):
    for c in range(W):
        chunk[r][c] = GRID[r][c]
open("small-infinite.tmx", "w").write(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="30" height="20" tilewidth="16" tileheight="16" infinite="1">
 <tileset firstgid="1" name="small" tilewidth="16" tileheight="16" tilecount="4" columns="4">
  <image source="small.png" width="64" height="16"/>
{TILES_XML} </tileset>
 <layer id="1" name="Ground" width="30" height="20">
  <data encoding="base64" compression="zlib">
   <chunk x="-16" y="0" width="16" height="16">{b64(chunk, True)}</chunk>
  </data>
 </layer>
{objects_xml(-256)}</map>
""")

def tiles_json():
    return [
        {"id": 0, "properties": [{"name": "solid", "type": "bool", "value": True}]},
        {"id": 1, "properties": [{"name": "TileType", "type": "string", "value": "Platform"}]},
        {"id": 2, "type": "Spikes"},
        {"id": 3, "properties": [{"name": "TileType", "type": "string", "value": "Decor"}]},
    ]

def objects_json(dx=0):
    sx, sy = SPAWN[0] * T + 8 + dx, SPAWN[1] * T + 15
    gx, gy = GOAL[0] * T + dx, GOAL[1] * T
    return {"type": "objectgroup", "name": "Objects", "objects": [
        {"id": 1, "name": "start", "type": "PlayerSpawnPoint", "x": sx, "y": sy, "point": True, "width": 0, "height": 0},
        {"id": 2, "name": "exit", "type": "LevelCompleteTrigger", "x": gx, "y": gy, "width": 16, "height": 16},
        {"id": 3, "name": "enemy", "type": "Slime", "x": 40, "y": 40, "width": 16, "height": 16},
    ]}

json.dump({"name": "small", "tilewidth": 16, "tileheight": 16, "tilecount": 4, "columns": 4,
           "image": "small.png", "imagewidth": 64, "imageheight": 16, "tiles": tiles_json()},
          open("small.tsj", "w"), indent=1)

# Finite TMJ: gid arrays, external .tsj tileset, a group around the decor layer.
json.dump({"type": "map", "orientation": "orthogonal", "width": W, "height": H,
           "tilewidth": 16, "tileheight": 16, "infinite": False,
           "tilesets": [{"firstgid": 1, "source": "small.tsj"}],
           "layers": [
               {"type": "tilelayer", "name": "Ground", "width": W, "height": H,
                "data": [g for row in GRID for g in row]},
               {"type": "group", "name": "Art", "layers": [
                   {"type": "tilelayer", "name": "Decor", "width": W, "height": H,
                    "data": [g for row in DECOR for g in row]}]},
               objects_json()]},
          open("small.tmj", "w"), indent=1)

# Infinite TMJ: uncompressed base64 chunks, embedded tileset.
json.dump({"type": "map", "orientation": "orthogonal", "width": 30, "height": 20,
           "tilewidth": 16, "tileheight": 16, "infinite": True,
           "tilesets": [{"firstgid": 1, "name": "small", "tilecount": 4, "tiles": tiles_json()}],
           "layers": [
               {"type": "tilelayer", "name": "Ground", "encoding": "base64", "width": 30, "height": 20,
                "chunks": [{"x": -16, "y": 0, "width": 16, "height": 16, "data": b64(chunk)}]},
               objects_json(-256)]},
          open("small-infinite.tmj", "w"), indent=1)

COLORS = {"#": (0, 0, 0), ".": (255, 255, 255), "^": (255, 0, 0), "=": (0, 0, 255),
          "G": (0, 255, 0), "S": (255, 255, 0)}

def png(path, px):
    h, w = len(px), len(px[0])
    raw = b"".join(b"\0" + bytes(v for p in row for v in p) for row in px)
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

png("small.png", [[COLORS[ch] for ch in row] for row in ROWS])
# 4 pixels per tile; one stray pixel per solid tile must not change it.
big = [[COLORS[ROWS[y // 4][x // 4]] for x in range(W * 4)] for y in range(H * 4)]
for y in range(0, H * 4, 4):
    for x in range(0, W * 4, 4):
        if ROWS[y // 4][x // 4] == "#":
            big[y + 1][x + 2] = (255, 255, 255)
png("small-4x.png", big)
