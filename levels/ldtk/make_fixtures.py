#!/usr/bin/env python3
"""Writes the LDtk twins of ../small/small.txt in each project layout.

Run from this directory: python3 make_fixtures.py. Standard library only.
- small.ldtk: levels embedded in the project; level "Start" is the twin, level
  "Flat" a second level (a floor and walls) for --level.
- small-external.ldtk: "Separate level files": the twin in small-external/Start.ldtkl.
- small-worlds.ldtk: the multi-worlds layout (levels inside "worlds").
The IntGrid layer "Collisions" names its values wall, platform, spikes and
ladder; the entity layer holds a "Player" (the spawn) and a "Goal"; an
auto-layer "Wall_shadows" draws tiles the conventions must not read.
"""
import json, os

ROWS = [l for l in open("../small/small.txt").read().split("\n") if l]
W, H, G = len(ROWS[0]), len(ROWS), 16
VALUE = {"#": 1, "=": 2, "^": 3}

def find(ch):
    return [(c, r) for r, row in enumerate(ROWS) for c, x in enumerate(row) if x == ch][0]

def intgrid(rows):
    return [VALUE.get(ch, 0) for row in rows for ch in row]

def entity(ident, c, r, pivot):
    # px is the pivot's position; the entity covers one cell.
    return {"__identifier": ident, "__grid": [c, r], "__pivot": pivot, "__tags": [],
            "iid": f"{ident}-{c}-{r}", "width": G, "height": G, "defUid": 10 if ident == "Player" else 11,
            "px": [c * G + pivot[0] * G, r * G + pivot[1] * G], "fieldInstances": []}

def layers(rows, entities):
    w, h = len(rows[0]), len(rows)
    base = {"__cWid": w, "__cHei": h, "__gridSize": G, "pxOffsetX": 0, "pxOffsetY": 0, "visible": True,
            "intGridCsv": [], "autoLayerTiles": [], "gridTiles": [], "entityInstances": []}
    shadows = [{"px": [c * G, (r + 1) * G], "src": [0, 0], "f": 0, "t": 0, "d": [0]}
               for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#" and r + 1 < h and rows[r + 1][c] != "#"]
    return [
        dict(base, __identifier="Entities", __type="Entities", layerDefUid=3, entityInstances=entities),
        dict(base, __identifier="Wall_shadows", __type="AutoLayer", layerDefUid=2, autoLayerTiles=shadows),
        dict(base, __identifier="Collisions", __type="IntGrid", layerDefUid=1, intGridCsv=intgrid(rows)),
    ]

def level(ident, rows, entities):
    return {"identifier": ident, "iid": ident.lower(), "uid": 0, "worldX": 0, "worldY": 0,
            "pxWid": len(rows[0]) * G, "pxHei": len(rows) * G, "externalRelPath": None,
            "layerInstances": layers(rows, entities), "fieldInstances": [], "__neighbours": []}

(sc, sr), (gc, gr) = find("S"), find("G")
start = level("Start", ROWS, [entity("Player", sc, sr, [0.5, 1]), entity("Goal", gc, gr, [0, 0])])
flat_rows = ["#" * 12] + ["#" + "." * 10 + "#"] * 3 + ["#" * 12]
flat = level("Flat", flat_rows, [entity("Player", 2, 3, [0.5, 1])])

DEFS = {"layers": [
    {"__type": "IntGrid", "identifier": "Collisions", "type": "IntGrid", "uid": 1, "gridSize": G,
     "intGridValues": [{"value": 1, "identifier": "wall", "color": "#000000"},
                       {"value": 2, "identifier": "platform", "color": "#0000FF"},
                       {"value": 3, "identifier": "spikes", "color": "#FF0000"},
                       {"value": 4, "identifier": "ladder", "color": "#00FF00"}]},
    {"__type": "AutoLayer", "identifier": "Wall_shadows", "type": "AutoLayer", "uid": 2, "gridSize": G, "intGridValues": []},
    {"__type": "Entities", "identifier": "Entities", "type": "Entities", "uid": 3, "gridSize": G, "intGridValues": []}],
    "entities": [{"identifier": "Player", "uid": 10, "width": G, "height": G},
                 {"identifier": "Goal", "uid": 11, "width": G, "height": G}],
    "tilesets": [], "enums": [], "externalEnums": [], "levelFields": []}

def project(**over):
    p = {"__header__": {"fileType": "LDtk Project JSON", "app": "LDtk"}, "iid": "p", "jsonVersion": "1.5.3",
         "defaultGridSize": G, "worldLayout": "Free", "externalLevels": False, "defs": DEFS, "levels": [], "worlds": []}
    p.update(over)
    return p

def dump(name, obj):
    with open(name, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")

dump("small.ldtk", project(levels=[start, flat]))
os.makedirs("small-external", exist_ok=True)
ext = dict(start, layerInstances=None, externalRelPath="small-external/Start.ldtkl")
dump("small-external.ldtk", project(externalLevels=True, levels=[ext]))
dump("small-external/Start.ldtkl", dict(start, __header__={"fileType": "LDtk Level JSON"}))
dump("small-worlds.ldtk", project(worldLayout=None, worlds=[
    {"identifier": "World", "iid": "w", "worldLayout": "Free", "levels": [flat, start]}]))
