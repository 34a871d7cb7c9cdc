#!/usr/bin/env python3
"""Writes the hostile-input corpus (run from this directory; stdlib only).

Each file must make platnav's load_level return an error, never panic or
abort; expected.txt lists the substring each error must contain.
"""
import base64, json, struct, zlib

def w(name, data):
    open(name, "wb").write(data if isinstance(data, bytes) else data.encode())

TS = '<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="4" columns="4"><image source="t.png" width="64" height="16"/></tileset>'

def tmx(body, width=4, height=2, infinite=0, tileset=TS):
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" '
            f'width="{width}" height="{height}" tilewidth="16" tileheight="16" infinite="{infinite}">\n'
            f' {tileset}\n{body}</map>\n')

def layer(csv, width=4, height=2, name="L"):
    return f' <layer id="1" name="{name}" width="{width}" height="{height}"><data encoding="csv">{csv}</data></layer>\n'

good = tmx(layer("1,1,1,1,0,0,0,0"))
w("truncated.tmx", good[: len(good) // 2])
w("empty.tmx", b"")
w("huge-size.tmx", tmx(layer("0", 100000, 100000), 100000, 100000))
w("huge-tilecount.tsx", '<?xml version="1.0"?>\n<tileset name="t" tilewidth="16" tileheight="16" tilecount="4294967295" columns="4"><image source="t.png" width="64" height="16"/></tileset>\n')
w("huge-tilecount.tmx", tmx(layer("1,1,1,1,0,0,0,0"), tileset='<tileset firstgid="1" source="huge-tilecount.tsx"/>'))
w("huge-tilecount-embedded.tmx", tmx(layer("1,1,1,1,0,0,0,0"), tileset=TS.replace('tilecount="4"', 'tilecount="4000000000"')))
w("unknown-gid.tmx", tmx(layer("1,99,1,1,0,0,0,0")))
w("unknown-gid-low.tmx", tmx(layer("1,5,1,1,0,0,0,0"), tileset=TS.replace('firstgid="1"', 'firstgid="10"')))
w("short-data.tmx", tmx(layer("1,1,1,1,0")))
w("bad-csv.tmx", tmx(layer("1,1,x,1,0,0,0,0")))
w("missing-tileset.tmx", tmx(layer("1,1,1,1,0,0,0,0"), tileset='<tileset firstgid="1" source="nope.tsx"/>'))
groups = "".join(f'<group id="{i}" name="g{i}">' for i in range(100)) + "</group>" * 100
w("dir-tileset.tmx", tmx(layer("1,1,1,1,0,0,0,0"), tileset='<tileset firstgid="1" source="."/>'))
w("columns-overflow.tmx", tmx(layer("1,1,1,1,0,0,0,0"), tileset='<tileset firstgid="1" name="t" tilewidth="4294967295" tileheight="16" spacing="1" tilecount="4"><image source="t.png" width="64" height="16"/></tileset>'))
w("margin-underflow.tmx", tmx(layer("1,1,1,1,0,0,0,0"), tileset='<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" margin="100" tilecount="4"><image source="t.png" width="64" height="16"/></tileset>'))
w("deep-nesting.tmx", tmx(groups + "\n"))
bomb = base64.b64encode(zlib.compress(b"\0" * (64 << 20))).decode()
w("zip-bomb.tmx", tmx(f' <layer id="1" name="L" width="4" height="2"><data encoding="base64" compression="zlib">{bomb}</data></layer>\n'))
w("zstd.tmx", tmx(' <layer id="1" name="L" width="4" height="2"><data encoding="base64" compression="zstd">AAAA</data></layer>\n'))
w("chunk-overflow.tmx", tmx(' <layer id="1" name="L" width="4" height="2"><data encoding="csv"><chunk x="2147483600" y="0" width="100" height="1">1</chunk></data></layer>\n', infinite=1))
w("too-many-layer-cells.tmx", tmx(' <layer id="1" name="A" width="4096" height="4096"/>\n <layer id="2" name="B" width="4096" height="4096"/>\n', 4096, 4096))
w("two-spawns.tmx", tmx(layer("1,1,1,1,0,0,0,0") + ' <objectgroup id="2" name="O"><object id="1" type="PlayerSpawnPoint" x="1" y="1"><point/></object><object id="2" type="PlayerSpawnPoint" x="20" y="1"><point/></object></objectgroup>\n'))
w("spawn-off-map.tmx", tmx(layer("1,1,1,1,0,0,0,0") + ' <objectgroup id="2" name="O"><object id="1" type="PlayerSpawnPoint" x="1e30" y="1"><point/></object></objectgroup>\n'))
w("non-utf8.tmx", good.replace('name="L"', 'name="L\udcff"', 1).encode("utf-8", "surrogateescape"))
w("isometric.tmx", good.replace("orthogonal", "isometric"))
w("bad-mapping.tmx", good)
# Found by the fuzzer: chunks in a map whose `infinite` attribute is mangled
# made the tiled crate index past its layer data.
w("chunks-in-finite.tmx", tmx(' <layer id="1" name="L" width="30" height="20"><data encoding="csv"><chunk x="0" y="0" width="1" height="1">1</chunk></data></layer>\n', 30, 20))
w("cdata-data.tmx", tmx(' <layer id="1" name="L" width="4" height="2"><data encoding="csv"><![CDATA[1,1,1,1,0,0,0,0]]></data></layer>\n'))
w("whitespace-data.tmx", tmx(' <layer id="1" name="L" width="4" height="2"><data encoding="csv">   </data></layer>\n'))
w("nested-layer.tmx", tmx(' <layer id="1" name="L" width="4" height="2"><layer id="2" name="M" width="1" height="1"><data encoding="csv">1</data></layer><data encoding="csv">1</data></layer>\n'))
w("xml-tiles.tmx", tmx(' <layer id="1" name="L" width="4" height="2"><data><tile gid="1"/></data></layer>\n'))
w("bad-mapping.json", '{"property": "TileType", "values": {"Rock": "lava"}}')

# Text formats.
w("ragged.txt", "####\n#..\n####\n")
w("ragged-vglc.txt", "XXXX\nX--\nXXXX\n")
w("vglc-legend.json", json.dumps({"tiles": {"X": ["solid"], "-": ["passable"]}}))
w("unknown-char.txt", "####\n#.?#\n####\n")
w("non-utf8.txt", b"####\n#.\xff#\n####\n")
w("empty.txt", b"")

def png_chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))

def png(wd, ht, rows):
    raw = b"".join(b"\0" + bytes(v for p in row for v in p) for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", wd, ht, 8, 2, 0, 0, 0))
            + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))

ok_png = png(4, 2, [[(0, 0, 0)] * 4, [(255, 255, 255)] * 4])
w("huge-dims.png", b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)) + png_chunk(b"IEND", b""))
w("truncated.png", ok_png[: len(ok_png) - 30])
w("not-a.png", b"GIF89a not a png at all")
w("unknown-colour.png", png(2, 1, [[(0, 0, 0), (12, 34, 56)]]))
w("bad-legend.png", ok_png)
w("bad-legend.json", '{"#00000": "solid"}')
w("bad-legend-tile.png", ok_png)
w("bad-legend-tile.json", '{"#000000": "lava"}')
w("uneven-tiles.png", ok_png)

# Tiled JSON.
def tmj(**over):
    m = {"type": "map", "orientation": "orthogonal", "width": 4, "height": 2, "tilewidth": 16,
         "tileheight": 16, "infinite": False,
         "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 4, "tiles": []}],
         "layers": [{"type": "tilelayer", "name": "L", "width": 4, "height": 2, "data": [1, 1, 1, 1, 0, 0, 0, 0]}]}
    m.update(over)
    return json.dumps(m)

w("bad-types.tmj", tmj(width="four"))
w("data-mismatch.tmj", tmj(layers=[{"type": "tilelayer", "name": "L", "width": 4, "height": 2, "data": [1, 1, 1, 1, 0]}]))
w("base64-mismatch.tmj", tmj(layers=[{"type": "tilelayer", "name": "L", "width": 4, "height": 2, "encoding": "base64", "data": "AAAAAAAA"}]))
w("huge.tmj", tmj(width=1000000, height=1000000))
w("huge-layer.tmj", tmj(layers=[{"type": "tilelayer", "name": "L", "width": 100000, "height": 100000, "data": [1]}]))
w("huge-chunk.tmj", tmj(infinite=True, layers=[{"type": "tilelayer", "name": "L", "width": 4, "height": 2, "chunks": [{"x": 0, "y": 0, "width": 70000, "height": 1, "data": [1]}]}]))
w("unknown-gid.tmj", tmj(layers=[{"type": "tilelayer", "name": "L", "width": 4, "height": 2, "data": [1, 1, 77, 1, 0, 0, 0, 0]}]))
w("negative.tmj", tmj(height=-2))
w("truncated.json", tmj()[:40])
w("gid-too-big.tmj", tmj(layers=[{"type": "tilelayer", "name": "L", "width": 4, "height": 2, "data": [1, 1, 99999999999, 1, 0, 0, 0, 0]}]))
w("missing-tileset.tmj", tmj(tilesets=[{"firstgid": 1, "source": "nope.tsj"}]))
w("tsx-from-tmj.tmj", tmj(tilesets=[{"firstgid": 1, "source": "huge-tilecount.tsx"}]))

# Rules files and maps that mark nothing.
w("spawn-rules.json", json.dumps({"spawn": ["PlayerSpawnPoint"]}))
w("bad-rules.json", json.dumps({"layers": {"L": "lava"}}))
w("bad-rules.tmx", good)
w("rules-missing-layer.tmx", good)
# Two layers of unmarked tiles and nothing else: no convention applies.
w("nothing.tmj", tmj(layers=[
    {"type": "tilelayer", "name": "A", "width": 4, "height": 2, "data": [1, 1, 1, 1, 0, 0, 0, 0]},
    {"type": "tilelayer", "name": "B", "width": 4, "height": 2, "data": [0, 0, 0, 0, 1, 0, 0, 0]},
    {"type": "objectgroup", "name": "Things", "objects": [{"id": 1, "name": "lamp", "type": "Light", "x": 3, "y": 3}]}]))
# A collision polygon over a 4096 x 4096 map: more rasterizing than allowed.
zeros = base64.b64encode(zlib.compress(b"\0" * (4096 * 4096 * 4))).decode()
w("huge-polygon.tmj", tmj(width=4096, height=4096, layers=[
    {"type": "tilelayer", "name": "L", "width": 4096, "height": 4096, "encoding": "base64", "compression": "zlib", "data": zeros},
    {"type": "objectgroup", "name": "Collision", "objects": [{"id": 1, "x": 0, "y": 0, "polygon": [
        {"x": 0, "y": 0}, {"x": 65536, "y": 0}, {"x": 65536, "y": 1}, {"x": 65536, "y": 2}, {"x": 65536, "y": 3},
        {"x": 65536, "y": 65536}, {"x": 0, "y": 65536}, {"x": 0, "y": 3}, {"x": 0, "y": 2}, {"x": 0, "y": 1}]}]}]))
w("unsupported.xyz", b"\x00\x01\x02binary\x00")
w("tileset.tsj", json.dumps({"type": "tileset", "name": "t", "tilewidth": 16, "tileheight": 16}))

# LDtk.
def ldtk(levels=None, **over):
    layer = {"__identifier": "Collisions", "__type": "IntGrid", "__cWid": 4, "__cHei": 2, "__gridSize": 16,
             "layerDefUid": 1, "pxOffsetX": 0, "pxOffsetY": 0, "intGridCsv": [1, 1, 1, 1, 0, 0, 0, 0],
             "entityInstances": [], "gridTiles": [], "autoLayerTiles": []}
    lv = {"identifier": "Level_0", "iid": "a", "pxWid": 64, "pxHei": 32, "layerInstances": [layer]}
    p = {"jsonVersion": "1.5.3", "defs": {"layers": [{"uid": 1, "identifier": "Collisions", "type": "IntGrid", "gridSize": 16,
         "intGridValues": [{"value": 1, "identifier": "wall"}]}]}, "levels": levels if levels is not None else [lv], "worlds": []}
    p.update(over)
    return json.dumps(p), lv, layer

_, lv, layer = ldtk()
w("ldtk-truncated.ldtk", ldtk()[0][:50])
w("ldtk-huge-level.ldtk", ldtk([dict(lv, pxWid=10**9, pxHei=10**9)])[0])
w("ldtk-huge-layer.ldtk", ldtk([dict(lv, layerInstances=[dict(layer, __cWid=100000, __cHei=100000)])])[0])
w("ldtk-csv-mismatch.ldtk", ldtk([dict(lv, layerInstances=[dict(layer, intGridCsv=[1, 1, 1])])])[0])
w("ldtk-missing-external.ldtk", ldtk([dict(lv, layerInstances=None, externalRelPath="nope.ldtkl")], externalLevels=True)[0])
w("ldtk-no-such-level.ldtk", ldtk()[0])
w("ldtk-no-levels.ldtk", ldtk([])[0])
w("ldtk-nothing.ldtk", ldtk([dict(lv, layerInstances=[dict(layer, __identifier="Decoration", layerDefUid=2)])])[0])
w("ldtk-types.ldtk", ldtk([dict(lv, pxWid="wide")])[0])
w("level.ldtkl", json.dumps(dict(lv, jsonVersion="1.5.3")))

# Moving platforms: a dangling end reference, a path of too many points,
# a speed that is not a number, a bad @platform line.
platform_ref = ('<objectgroup id="2" name="Things"><object id="1" type="MovingPlatform" x="16" y="16" '
                'width="16" height="16"><properties><property name="StartPosition" type="object" value="99"/>'
                '</properties></object></objectgroup>\n')
# (`layer` is the LDtk layer by now: the TMX one is written out.)
floor = ' <layer id="1" name="L" width="4" height="2"><data encoding="csv">1,1,1,1,0,0,0,0</data></layer>\n'
w("platform-dangling.tmx", tmx(floor + platform_ref))
w("platform-points.tmj", tmj(layers=[
    {"type": "tilelayer", "name": "L", "width": 4, "height": 2, "data": [1, 1, 1, 1, 0, 0, 0, 0]},
    {"type": "objectgroup", "name": "Things", "objects": [{"id": 3, "name": "Elevator", "x": 0, "y": 0,
        "polyline": [{"x": i, "y": 0} for i in range(300)]}]}]))
lift = {"__identifier": "MovingPlatform", "__pivot": [0, 0], "__tags": [], "px": [0, 0], "width": 16, "height": 16,
        "fieldInstances": [{"__identifier": "path", "__type": "Array<Point>", "__value": [{"cx": 3, "cy": 0}]},
                           {"__identifier": "speed", "__type": "String", "__value": "fast"}]}
entities = {"__identifier": "Entities", "__type": "Entities", "__cWid": 4, "__cHei": 2, "__gridSize": 16,
            "layerDefUid": 2, "entityInstances": [lift]}
w("platform-speed.ldtk", ldtk([dict(lv, layerInstances=[entities, layer])])[0])
w("platform-line.txt", "@wrap x\n@platform 2 1,1 speed fast\n....\n####\n")
