/* The module's state as the binding's types reach it: from the type of an
 * object, which may be a Python subclass of one of them. */
#include "python/binding.h"

PyObject *bkpy_module_of_type(PyTypeObject *type)
{
    for (PyTypeObject *t = type; t; t = t->tp_base) {
        /* a class made in Python has no module: PyType_GetModule raises TypeError */
        PyObject *module = (t->tp_flags & Py_TPFLAGS_HEAPTYPE) ? PyType_GetModule(t) : NULL;
        if (module) return module;
        PyErr_Clear();
    }
    PyErr_Format(PyExc_SystemError, "%.100s: no type of blokus._core among its bases", type->tp_name);
    return NULL;
}

bkpy_state *bkpy_state_of_type(PyTypeObject *type)
{
    PyObject *module = bkpy_module_of_type(type);
    return module ? PyModule_GetState(module) : NULL;
}
