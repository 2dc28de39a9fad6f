/* Core status codes as Python exceptions: IllegalMoveError for a move
 * against a rule (naming the rule), InvalidMoveError for a move that names no
 * placement at all, ValueError and IndexError for the rest. */
#include "python/binding.h"

#include "core/movetext.h"

PyObject *bkpy_raise_status(const bkpy_state *st, const bk_board *b, bk_status status, int colour, int id)
{
    char text[BK_MOVE_TEXT_MAX] = "";
    bk_variant_info info;
    bk_variant_get_info(b->variant, &info);
    const char *who = colour >= 0 ? info.colour_names[colour] : "nobody";
    if (id >= 0) bk_move_text(b->geom, id, text);
    switch (status) {
    case BK_ERR_GAME_OVER:
        PyErr_SetString(st->illegal_move_error, "game over: no colour can place a piece any more");
        break;
    case BK_ERR_OFF_BOARD:
        PyErr_Format(st->illegal_move_error, "off board: a cell lies outside the %dx%d board", b->side, b->side);
        break;
    case BK_ERR_OCCUPIED:
        PyErr_Format(st->illegal_move_error, "%s cannot play %s: a cell is already occupied", who, text);
        break;
    case BK_ERR_PIECE_USED:
        PyErr_Format(st->illegal_move_error, "%s cannot play %s: piece %s already used", who, text,
                     bk_piece_names[bk_orients[b->geom->orient_of[id]].piece]);
        break;
    case BK_ERR_EDGE_CONTACT:
        PyErr_Format(st->illegal_move_error, "%s cannot play %s: it shares an edge with %s's own pieces", who,
                     text, who);
        break;
    case BK_ERR_NO_CORNER:
        PyErr_Format(st->illegal_move_error, "%s cannot play %s: no corner contact with %s's own pieces", who,
                     text, who);
        break;
    case BK_ERR_NOT_START: {
        char open[BK_MAX_COLOURS * BK_CELL_TEXT_MAX] = "", *end = open; /* cells, comma-separated */
        for (int i = 0; i < b->num_colours; i++) {
            if (!bk_start_open(b, colour, i)) continue;
            if (end > open) *end++ = ',';
            end += bk_cell_text(b->side, b->starts[i], end);
            *end = '\0';
        }
        PyErr_Format(st->illegal_move_error,
                     "%s cannot play %s: a first piece must cover a free starting square (open to it: %s)", who,
                     text, open);
        break;
    }
    case BK_ERR_NOT_A_PIECE:
        PyErr_SetString(st->invalid_move_error, "the cells are not one of the 21 pieces (1 to 5 distinct cells "
                                          "forming a piece)");
        break;
    case BK_ERR_BAD_TEXT:
        PyErr_SetString(st->invalid_move_error, "cannot read the move text: expected comma-separated cells such as "
                                          "\"a20,b20,c20\" (column letter, row number from the bottom)");
        break;
    case BK_ERR_BAD_COLOUR:
        PyErr_Format(PyExc_ValueError, "colour must be in range(%d)", b->num_colours);
        break;
    case BK_ERR_BAD_ID:
        PyErr_Format(PyExc_ValueError, "placement id %d out of range(%d)", id, b->geom->num_placements);
        break;
    case BK_ERR_NO_HISTORY:
        PyErr_SetString(PyExc_IndexError, "undo: no move has been played");
        break;
    default:
        PyErr_Format(PyExc_SystemError, "blokus core status %d", (int)status);
    }
    return NULL;
}

