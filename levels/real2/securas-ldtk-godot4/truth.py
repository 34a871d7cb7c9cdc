#!/usr/bin/env python3
"""Ground truth for resources/map.ldtk (securas, LDtk_With_Godot4_Example).

Game code: github.com/securas/LDtk_With_Godot4_Example @ b2951bfb36d0c88c801e42c6b8b312fb78f793a9
(map.ldtk and map/level_*.ldtkl here are byte-identical to game/resources/ at that commit).
All paths below are under game/.

Rule: collision is NOT in the LDtk file; it is the Godot TileSet behind the auto-tiles.
- Importer: for every non-Entities layer it stores the layer's `autoLayerTiles` (falling back
  to `gridTiles` when empty), each as cell = px / __gridSize and atlas coord = src / __gridSize;
  flip bits are recorded but never used (addons/ldtk2godot4/ldtk2godot4_import.gd:112-136).
- LDtkTileMap writes them in array order with set_cell(layer, cell, source 0, atlas, alt 0),
  so a later tile on the same cell replaces an earlier one (addons/ldtk2godot4/ldtk_tilemap.gd:86-96).
- Only the TileMap node "walls" (layer "walls") uses resources/walls_tileset.tres
  (world/base_level/base_level.tscn:15-21); "decorations"/"auto_decorations" use
  resources/decorations_tileset.tres, which has no physics polygons at all.
- walls_tileset.tres: 16x16 tiles, physics_layer_0 collision_layer 1 (:801-803). The player
  (CharacterBody2D, default collision_mask 1) collides with it. Tiles with a polygon (all
  full 16x16 squares, PackedVector2Array(-8,-8, 8,-8, 8,8, -8,8)):
      solid    (0,7)@474 (1,7)@470 (2,7)@466 (0,8)@389 (1,8)@385 (2,8)@381
               (0,9)@393 (1,9)@397 (2,9)@401 (3,9)@405 (0,10)@747 (1,10)@751
               (2,10)@755 (3,10)@759 (3,11)@544
      one_way  (3,7)@376-377 (0,11)@742-743 (1,11)@798-799 (2,11)@793-794 (3,12)@695-696
  (atlas x,y @ .tres line). Every other atlas tile has no polygon -> no collision.
  Godot one-way polygons block only from above (default one-way direction) -> '='.
- No hazard tiles: the level scene has no hazard TileMap (base_level.tscn) and
  world/base_level/hazards.gd is an empty LDtkTileMap. Enemies (slime, trooper, cucumber)
  move and are not cells; coins are pickups.
- Spawn: not in the map. The player node sits at world px (2128, 256) (world/world.tscn:21-22);
  world.gd:22-25 (world_debug defaults to true, world.gd:4) puts state.worldpos there and
  loads the level whose rect contains it (addons/ldtk2godot4/ldtk_map.gd:17-22), then places
  the player at worldpos - level world position (world.gd:40). The collision box is 12x15
  centred at (0,-7.5) (entities/player/player.tscn:17-18,254-257), so its bottom edge is the
  node's y. Spawn cell = (x // 16, (y - 1) // 16) in that level (level_3: 13,15); all other
  levels: spawn none. (Without world_debug, game.gd:36 would start at world (100,14) in level_0.)
- Goal: none (a small metroidvania, no goal entity).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MAP = os.path.join("resources", "map.ldtk")
REPO = "securas/LDtk_With_Godot4_Example@b2951bf"

# walls_tileset.tres physics polygons (see docstring for line numbers)
SOLID = {(0, 7), (1, 7), (2, 7), (0, 8), (1, 8), (2, 8), (0, 9), (1, 9), (2, 9), (3, 9),
         (0, 10), (1, 10), (2, 10), (3, 10), (3, 11)}
ONE_WAY = {(3, 7), (0, 11), (1, 11), (2, 11), (3, 12)}
WALLS_LAYERS = ["walls"]             # base_level.tscn:20
PLAYER_WORLD_POS = (2128, 256)       # world.tscn:22


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
        layers = {li["__identifier"]: li for li in data["layerInstances"]}
        ref = layers[WALLS_LAYERS[0]]
        w, h, gs = ref["__cWid"], ref["__cHei"], ref["__gridSize"]
        cells = {}
        for name in WALLS_LAYERS:
            li = layers[name]
            tiles = li["autoLayerTiles"] or li["gridTiles"]
            csz = li["__gridSize"]
            for t in tiles:
                cell = (int(t["px"][0] / csz), int(t["px"][1] / csz))
                atlas = (int(t["src"][0] / csz), int(t["src"][1] / csz))
                cells[cell] = atlas            # set_cell: last write wins
        grid = []
        for y in range(h):
            row = []
            for x in range(w):
                a = cells.get((x, y))
                row.append("#" if a in SOLID else "=" if a in ONE_WAY else ".")
            grid.append("".join(row))

        spawn = "none"
        px, py = PLAYER_WORLD_POS
        lx, ly = lv["worldX"], lv["worldY"]
        if lx <= px < lx + lv["pxWid"] and ly <= py < ly + lv["pxHei"]:
            # The spawn lives in the game's scene, not in the map: noted in
            # the comment, and `none` for what the map holds.
            spawn = "none (the game's scene puts the player at %d,%d)" % (
                (px - lx) // gs, (py - ly - 1) // gs)

        out = os.path.join(HERE, "%s.%s.truth" % (MAP, lv["identifier"]))
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.write("# %s level %s: walls auto-tile atlas coords joined with walls_tileset.tres "
                    "polygons (one_way -> '='), from %s\n"
                    % (os.path.basename(MAP), lv["identifier"], REPO))
            f.write("# spawn: %s\n" % spawn if spawn != "none" else "")
            f.write("spawn none\n")
            f.write("goal none\n")
            for row in grid:
                f.write(row + "\n")


if __name__ == "__main__":
    main()
