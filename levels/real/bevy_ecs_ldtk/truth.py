#!/usr/bin/env python3
"""Ground truth for bevy_ecs_ldtk/Typical_2D_platformer_example.ldtk (3 levels),
derived from the game's own code.

Game: Trouv/bevy_ecs_ldtk @ c100b4df31d1f5146a82496c84088846bab8cfeb,
examples/platformer/*.rs, which loads assets/Typical_2D_platformer_example.ldtk
(the file copied here; game_flow.rs:18-24).

Rules applied (paths relative to that commit):

* Solid: walls.rs:186-194 registers WallBundle for IntGrid values 1 (dirt)
  and 3 (stone) with `register_ldtk_int_cell`, which applies to *every*
  IntGrid layer (src/app/int_cell_app_ext.rs:79-83); walls.rs:32-181 merges
  those cells into static rectangle colliders (RigidBody::Static), full
  cells.  The only IntGrid layer here is `Collisions`; the script still
  reads every IntGrid layer, as the game does.  Cell index -> grid coords:
  src/utils.rs:23-45 (x = i % cWid, row = i / cWid, flipped to bevy's y-up,
  which we undo: row 0 = top).

* Ladder: climbing.rs:16-21, :85 registers LadderBundle for IntGrid value 2;
  colliders.rs:61-76 gives it a 16x16 Sensor collider (the cell), and
  player.rs:42-53 lets the player climb while touching one.

* Nothing kills: no damage/death code anywhere in examples/platformer.
  `Mob` (enemy.rs:107-113, colliders.rs:33-38) is a kinematic patrolling
  body -> an enemy, not a hazard cell.  `Chest` (misc_objects.rs:6-12, :24,
  colliders.rs:39-47) is a dynamic 16x16 pushable body -> dynamic, not marked.
  `Pumpkins` is sprite only (misc_objects.rs:14-18).  `Door` entities are not
  registered by the example at all (no collider, `locked` never read) ->
  nothing.

* Spawn: entity `Player` (player.rs:11-30, :67); it is #[worldly] and
  LevelSelection::Uid(0) (main.rs:27) starts in level uid 0.  Its translation
  is the centre of the entity box given px, pivot and width/height
  (src/utils.rs:224-237); the spawn cell is the cell of (box centre x,
  box bottom - 1) of that entity box.  (The physics collider is 12x28 about
  the same centre, colliders.rs:22-23, i.e. its bottom is 2 px lower, inside
  the floor; avian pushes it out.)  Levels without a Player entity: none.

* Goal: no goal entity; levels connect to neighbours (main.rs:28-34,
  game_flow.rs:38-74) -> `goal none`.

Run from anywhere: python3 truth.py -> rewrites
Typical_2D_platformer_example.ldtk.<Level>.truth next to it.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = "Typical_2D_platformer_example.ldtk"
REPO = "Trouv/bevy_ecs_ldtk"
COMMIT = "c100b4d"
SOLID_VALUES = {1, 3}
LADDER_VALUES = {2}


def main():
    with open(os.path.join(HERE, PROJECT), encoding="utf-8") as f:
        p = json.load(f)
    for lv in p["levels"]:
        layers = lv["layerInstances"]
        intgrids = [l for l in layers if l["__type"] == "IntGrid"]
        # Collision grid: the IntGrid layer(s); all share one grid here.
        ref = next((l for l in intgrids if l["__identifier"] == "Collisions"), intgrids[0])
        W, H, gs = ref["__cWid"], ref["__cHei"], ref["__gridSize"]
        grid = [["."] * W for _ in range(H)]
        for l in intgrids:
            assert (l["__cWid"], l["__cHei"], l["__gridSize"]) == (W, H, gs)
            csv = l["intGridCsv"]
            for i, v in enumerate(csv):
                c, r = i % W, i // W
                if v in SOLID_VALUES:
                    grid[r][c] = "#"
                elif v in LADDER_VALUES and grid[r][c] == ".":
                    grid[r][c] = "H"
        spawn = None
        for l in layers:
            if l["__type"] != "Entities":
                continue
            for e in l["entityInstances"]:
                if e["__identifier"] != "Player":
                    continue
                px, py = e["px"]
                px += l.get("__pxTotalOffsetX", 0)
                py += l.get("__pxTotalOffsetY", 0)
                pvx, pvy = e["__pivot"]
                w, h = e["width"], e["height"]
                left = px - pvx * w
                top = py - pvy * h
                cx = left + w / 2.0
                bottom = top + h
                spawn = (int(cx // gs), int((bottom - 1) // gs))
        out = [
            "# %s level %s: IntGrid values 1 (dirt) and 3 (stone) solid, 2 ladder; entity Player "
            "spawns; no goal (levels chain to neighbours), from %s@%s"
            % (PROJECT, lv["identifier"], REPO, COMMIT),
            "spawn %d,%d" % spawn if spawn else "spawn none",
            "goal none",
        ] + ["".join(r) for r in grid]
        path = os.path.join(HERE, "%s.%s.truth" % (PROJECT, lv["identifier"]))
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
