/* blokus._core: the module of the CPython binding.  Its state (the Game
 * type, the exceptions, a scratch move list) and its life cycle; its types
 * and functions are added by the files named in binding.h. */
#define BK_BINDING_MAIN
#include "python/binding.h"

#include <stdio.h>

#include "core/init.h"
#include "engine/playout_policy.h"
#include "engine/prior.h"

PyDoc_STRVAR(module_doc, "The C core of blokus: rules, move generation, scoring, search and the batch\n"
                         "engine, for the Python package blokus (which is the documented API).");

/* An exception type of the module, ValueError's subclass, as `name`. */
static PyObject *add_error(PyObject *module, const char *name, const char *doc)
{
    char qualified[64];
    snprintf(qualified, sizeof qualified, "blokus.%s", name);
    PyObject *type = PyErr_NewExceptionWithDoc(qualified, doc, PyExc_ValueError, NULL);
    if (type && PyModule_AddObjectRef(module, name, type) < 0) Py_CLEAR(type);
    return type;
}

static int module_exec(PyObject *module)
{
    bkpy_state *st = PyModule_GetState(module);
    if (PyArray_ImportNumPyAPI() < 0) return -1;
    const char *problem = bk_init();
    if (problem) { /* a table edited inconsistently: nothing of the core may be used */
        PyErr_Format(PyExc_SystemError, "blokus core tables: %s", problem);
        return -1;
    }
    bk_playout_policy_init();
    bk_prior_init();
    st->moves = PyMem_RawMalloc(BK_MAX_MOVES * sizeof(uint16_t));
    if (!st->moves) {
        PyErr_NoMemory();
        return -1;
    }
    st->illegal_move_error = add_error(module, "IllegalMoveError",
                                       "A move that breaks a rule of Blokus; the message names the rule.");
    st->invalid_move_error = add_error(module, "InvalidMoveError",
                                       "A move that names no placement at all: a text that cannot be read, or cells "
                                       "that are not one of the 21 pieces. (IllegalMoveError is for a real "
                                       "placement that the rules forbid.)");
    if (!st->illegal_move_error || !st->invalid_move_error) return -1;
    if (bkpy_add_game_type(module) < 0 || bkpy_add_vector_type(module) < 0 || bkpy_add_agent_functions(module) < 0 ||
        bkpy_add_puzzle_functions(module) < 0 || bkpy_add_solver_functions(module) < 0 ||
        bkpy_add_rules(module) < 0 || bkpy_add_search_type(module) < 0)
        return -1;
    return 0;
}

static int module_traverse(PyObject *module, visitproc visit, void *arg)
{
    bkpy_state *st = PyModule_GetState(module);
    Py_VISIT(st->game_type);
    Py_VISIT(st->illegal_move_error);
    Py_VISIT(st->invalid_move_error);
    return 0;
}

static int module_clear(PyObject *module)
{
    bkpy_state *st = PyModule_GetState(module);
    Py_CLEAR(st->game_type);
    Py_CLEAR(st->illegal_move_error);
    Py_CLEAR(st->invalid_move_error);
    return 0;
}

static void module_free(void *module)
{
    bkpy_state *st = PyModule_GetState((PyObject *)module);
    module_clear((PyObject *)module);
    PyMem_RawFree(st->moves);
    st->moves = NULL;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
#ifdef Py_mod_multiple_interpreters
    /* NumPy, whose C API every array here goes through, does not support subinterpreters */
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED},
#endif
#ifdef Py_mod_gil
    /* the GIL guards the scratch move list and VectorGame's busy flag */
    {Py_mod_gil, Py_MOD_GIL_USED},
#endif
    {0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "blokus._core",
    .m_doc = module_doc,
    .m_size = sizeof(bkpy_state),
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit__core(void)
{
    return PyModuleDef_Init(&module_def);
}
