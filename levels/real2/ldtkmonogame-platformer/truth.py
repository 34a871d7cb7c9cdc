#!/usr/bin/env python3
"""Ground truth for LDtkMonogameExample.ldtk (LDtkMonogame platformer example).

Game code: github.com/IrishBruse/LDtkMonogame @ e75c13d55a427769d6e12b31adc15de1bff1fe49
(the .ldtk/.ldtkl files here are byte-identical to
LDtk.Example/Content/Platformer/LDtkMonogameExample* at that commit).

Rules applied (all paths under LDtk.Example/ unless noted):
- Levels: the project has the MultiWorlds flag; the root `levels` array is empty and the
  game loads `worlds[0]` ("World") by iid (Platformer/PlatformerGame.cs:54-56). Every level
  of every world (and of the root array, if any) is written; each level is an external
  .ldtkl (`externalRelPath`).
- Collision layer: the IntGrid layer named "Level" (Platformer/Player/PlayerController.cs:136).
  Its own grid (`__gridSize` = 32 px, not `defaultGridSize` 16) is the truth grid.
  Out-of-level cells read 0 (LDtk/JsonPartials/LDtkIntGrid.cs:25-40).
- Every value > 0 becomes a full-cell box (PlayerController.cs:145-155). Resolution
  (PlayerController.cs:185-203):
    value 1 (Wall)              -> resolves on every contact normal      -> '#'
    values 2 (Platform), 3 (Shelf) -> resolve only when the contact normal is (0,-1),
                                   i.e. landing from above; S+Space drops through
                                   (PlayerController.cs:104-109)          -> '='
    any other value -> the game throws; this script raises too.
- No hazards, ladders, slopes or moving solids exist in the game code. Crates are only hit
  by the attack box (PlatformerGame.cs:161-182), Diamonds are pickups (:131-159), Doors
  are teleport triggers (:184-226) -- none is a collider, so none marks a cell.
- Spawn: the game starts in the hard-coded level "Level1" (PlatformerGame.cs:69) at its
  PlayerSpawn entity (:71-73). The player collider is a 20x30 Box whose pivot is the
  spawn entity's pivot, placed at the entity position (PlayerController.cs:40-46,
  AABB/Box.cs:16-18; entity Position = px + level position, LDtk/LDtkFieldParser.cs:46).
  Spawn cell = (collider centre x, collider bottom - 1 px) in the 32 px grid.
  Every other level: spawn none (the player only enters them through doors/neighbours).
- Goal: none. The game has no finish: Door entities (field LevelIdentifier) teleport to
  the named level's door (PlatformerGame.cs:75-81) and rooms switch via __neighbours
  (Platformer/LevelManager.cs:38-54). Doors are links, not goals.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MAP = "LDtkMonogameExample.ldtk"
REPO = "IrishBruse/LDtkMonogame@e75c13d"
START_LEVEL = "Level1"              # PlatformerGame.cs:69
COLLIDER_W, COLLIDER_H = 20, 30     # PlayerController.cs:46


def level_list(project):
    levels = list(project.get("levels") or [])
    for w in project.get("worlds") or []:
        levels.extend(w.get("levels") or [])
    return levels


def load_level(lv):
    if lv.get("externalRelPath"):
        with open(os.path.join(HERE, lv["externalRelPath"]), encoding="utf-8") as f:
            return json.load(f)
    return lv


def main():
    with open(os.path.join(HERE, MAP), encoding="utf-8") as f:
        project = json.load(f)
    for lv in level_list(project):
        data = load_level(lv)
        layers = {li["__identifier"]: li for li in data["layerInstances"]}
        coll = layers["Level"]
        w, h, gs = coll["__cWid"], coll["__cHei"], coll["__gridSize"]
        csv = coll["intGridCsv"]
        grid = []
        for y in range(h):
            row = []
            for x in range(w):
                v = csv[y * w + x]
                if v == 0:
                    row.append(".")
                elif v == 1:
                    row.append("#")
                elif v in (2, 3):
                    row.append("=")
                else:
                    raise SystemExit("%s: value %d is an unhandled intgrid type (game throws)"
                                     % (lv["identifier"], v))
            grid.append("".join(row))

        spawn = "none"
        if lv["identifier"] == START_LEVEL:
            for li in data["layerInstances"]:
                for e in li.get("entityInstances") or []:
                    if e["__identifier"] == "PlayerSpawn":
                        px, py = e["px"]
                        pvx, pvy = e["__pivot"]
                        left = px - COLLIDER_W * pvx
                        top = py - COLLIDER_H * pvy
                        cx = left + COLLIDER_W / 2.0
                        bottom = top + COLLIDER_H
                        spawn = "%d,%d" % (int(cx // gs), int((bottom - 1) // gs))
                        break
                if spawn != "none":
                    break

        out = os.path.join(HERE, "%s.%s.truth" % (MAP, lv["identifier"]))
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.write("# %s level %s: IntGrid 'Level' 1=solid, 2/3=one-way (land from above only), "
                    "no hazards/ladders/goals, from %s\n" % (MAP, lv["identifier"], REPO))
            f.write("spawn %s\n" % spawn)
            f.write("goal none\n")
            for row in grid:
                f.write(row + "\n")


if __name__ == "__main__":
    main()
