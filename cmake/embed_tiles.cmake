# Turns the tile data files into one C source holding their text, so libcarc needs no file I/O.
# Usage: cmake -DOUT=<file.c> -DDIR=<engine/tiles> -P embed_tiles.cmake (every *.tiles there, sorted)
# The work is done by embed_files.cmake; this names what libcarc expects (tileset.h).
set(GLOB "${DIR}/*.tiles")
set(HEADER tileset.h)
set(TYPE carc_builtin_set)
set(ARRAY carc_builtin_sets)
set(COUNT carc_builtin_nsets)
set(COUNT_TYPE int)
set(PREFIX set)
include("${CMAKE_CURRENT_LIST_DIR}/embed_files.cmake")
