<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="small" tilewidth="16" tileheight="16" tilecount="4" columns="4">
 <image source="small.png" width="64" height="16"/>
 <tile id="0"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 <tile id="1"><properties><property name="TileType" value="Platform"/></properties></tile>
 <tile id="2" type="Spikes"/>
 <tile id="3"><properties><property name="TileType" value="Decor"/></properties></tile>
</tileset>
