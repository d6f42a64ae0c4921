/*
 * marks.c — the marks printed on tile types (hills, vineyards, crop circles, fruit trees) and whether they
 * count: shared by the expansions whose rules read them (exp_hills.c, exp_crop.c, exp_fruit.c, json_fruit.c).
 */
#include "expansions.h"

/* A mark counts only when its expansion is in play (a triangle's hill without Hills & Sheep is scenery). */
bool carc_mark_active(const carc_state *st, int type, int mark)
{
    const carc_tile_type *t = &st->cat->types[type];
    if (!(t->marks & mark))
        return false;
    switch (mark) {
    case CARC_MARK_HILL:
    case CARC_MARK_VINEYARD: return carc_has(st, CARC_SET_HILLS_SHEEP);
    case CARC_MARK_CC: return carc_has(st, CARC_SET_CROP_CIRCLES);
    case CARC_MARK_TREE: return carc_has(st, CARC_SET_FRUIT_TREES);
    default: return false;
    }
}
