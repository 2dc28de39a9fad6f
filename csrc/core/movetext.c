/* Placement text: formatting and parsing. */
#include "core/movetext.h"

static int canonical_before(bk_cell a, bk_cell b)
{
    return a.r != b.r ? a.r > b.r : a.c < b.c; /* bottom row first, then left to right */
}

int bk_cell_text(int side, bk_cell c, char *buf)
{
    int len = 0, number = side - c.r;
    buf[len++] = (char)('a' + c.c);
    if (number >= 10) buf[len++] = (char)('0' + number / 10);
    buf[len++] = (char)('0' + number % 10);
    return len;
}

int bk_move_text(const bk_geometry *g, int id, char *buf)
{
    const bk_orient *o = &bk_orients[g->orient_of[id]];
    bk_cell cells[BK_MAX_PIECE_SIZE];
    int len = 0;
    for (int i = 0; i < o->size; i++) {
        bk_cell c = {(int8_t)(g->row_of[id] + o->cells[i].r), (int8_t)(g->col_of[id] + o->cells[i].c)};
        int j = i;
        for (; j > 0 && canonical_before(c, cells[j - 1]); j--) cells[j] = cells[j - 1];
        cells[j] = c;
    }
    for (int i = 0; i < o->size; i++) {
        if (i) buf[len++] = ',';
        len += bk_cell_text(g->side, cells[i], buf + len);
    }
    buf[len] = '\0';
    return len;
}

bk_status bk_cells_to_id(const bk_geometry *g, const bk_cell *cells, int n, int *id)
{
    int min_r = BK_MAX_SIZE, min_c = BK_MAX_SIZE;
    uint32_t shape = 0;
    if (n < 1 || n > BK_MAX_PIECE_SIZE) return BK_ERR_NOT_A_PIECE;
    for (int i = 0; i < n; i++) {
        if (cells[i].r < 0 || cells[i].r >= g->side || cells[i].c < 0 || cells[i].c >= g->side)
            return BK_ERR_OFF_BOARD;
        if (cells[i].r < min_r) min_r = cells[i].r;
        if (cells[i].c < min_c) min_c = cells[i].c;
    }
    for (int i = 0; i < n; i++) {
        int r = cells[i].r - min_r, c = cells[i].c - min_c;
        uint32_t bit;
        if (r >= BK_MAX_PIECE_SIZE || c >= BK_MAX_PIECE_SIZE) return BK_ERR_NOT_A_PIECE;
        bit = 1u << (5 * r + c);
        if (shape & bit) return BK_ERR_NOT_A_PIECE;
        shape |= bit;
    }
    int o = bk_orient_from_shape(shape);
    if (o < 0) return BK_ERR_NOT_A_PIECE;
    *id = bk_placement_id(g, o, min_r, min_c);
    return BK_OK;
}

static size_t skip_blanks(const char *text, size_t len, size_t i)
{
    while (i < len && (text[i] == ' ' || text[i] == '\t')) i++; /* people type "e10, e9" */
    return i;
}

bk_status bk_parse_move(const bk_geometry *g, const char *text, size_t len, int *id)
{
    bk_cell cells[BK_MAX_PIECE_SIZE];
    int n = 0, off_board = 0;
    size_t i = 0;
    do {
        int col, number = 0, digits = 0;
        i = skip_blanks(text, len, i);
        if (i == len) return BK_ERR_BAD_TEXT; /* empty text, or nothing after a comma */
        char ch = text[i++];
        if (ch >= 'a' && ch <= 'z')
            col = ch - 'a';
        else if (ch >= 'A' && ch <= 'Z')
            col = ch - 'A';
        else
            return BK_ERR_BAD_TEXT;
        if (i < len && text[i] == '0') return BK_ERR_BAD_TEXT; /* rows count from 1, written plainly */
        for (; i < len && text[i] >= '0' && text[i] <= '9'; i++, digits++)
            number = number * 10 + (text[i] - '0');
        if (digits == 0 || digits > 2) return BK_ERR_BAD_TEXT;
        i = skip_blanks(text, len, i);
        if (i < len && text[i++] != ',') return BK_ERR_BAD_TEXT;
        if (n == BK_MAX_PIECE_SIZE) return BK_ERR_NOT_A_PIECE;
        if (col >= g->side || number < 1 || number > g->side) off_board = 1;
        cells[n++] = (bk_cell){(int8_t)(g->side - number), (int8_t)col};
    } while (i < len || text[len - 1] == ',');
    if (off_board) return BK_ERR_OFF_BOARD;
    return bk_cells_to_id(g, cells, n, id);
}
