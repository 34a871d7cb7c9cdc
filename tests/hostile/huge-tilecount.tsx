<?xml version="1.0"?>
<tileset name="t" tilewidth="16" tileheight="16" tilecount="4294967295" columns="4"><image source="t.png" width="64" height="16"/></tileset>
