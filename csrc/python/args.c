/* Reading Python arguments in the binding files.
 *
 * Converting an argument can run Python code: an item's __index__, an
 * iterable's __iter__ or __next__.  That code may change the very
 * containers being read (empty the list of cells, shorten a kind), so no
 * function here holds a borrowed pointer across a conversion: the items of
 * a container are first taken, owned, into a tuple nobody else can change,
 * and only then converted.  Iterables are read no further than the longest
 * valid value plus one item, so an endless one is refused, not exhausted. */
#include "python/binding.h"

int bkpy_lookup_name(PyObject *name, const char *const *names, int n, const char *what)
{
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s", what, Py_TYPE(name)->tp_name);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (PyUnicode_CompareWithASCIIString(name, names[i]) == 0) return i; /* a NUL inside never matches */
    PyObject *choices = PyUnicode_FromString(names[0]);
    for (int i = 1; i < n && choices; i++) Py_SETREF(choices, PyUnicode_FromFormat("%U, %s", choices, names[i]));
    /* %.40R: a long string is cut, not echoed whole */
    if (choices) PyErr_Format(PyExc_ValueError, "unknown %s %.40R (expected one of: %U)", what, name, choices);
    Py_XDECREF(choices);
    return -1;
}

int bkpy_variant_arg(PyObject *obj, bk_variant_info *info)
{
    int v = bkpy_lookup_name(obj, bk_variant_names, BK_NUM_VARIANTS, "variant");
    if (v >= 0) bk_variant_get_info(v, info);
    return v;
}

int bkpy_index_in(PyObject *obj, const char *what, long long lo, long long hi, long long *out)
{
    /* bool is an int, but True as a placement id or a colour is a mistake, not a number */
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *index = PyNumber_Index(obj);
    if (!index) return -1;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v >= hi) {
        /* the value itself is not echoed: it may have thousands of digits */
        if (lo == 0) PyErr_Format(PyExc_ValueError, "%s out of range(%lld)", what, hi);
        else PyErr_Format(PyExc_ValueError, "%s out of range(%lld, %lld)", what, lo, hi);
        return -2;
    }
    *out = v;
    return 0;
}

PyObject *bkpy_items(PyObject *obj, Py_ssize_t max, const char *what)
{
    if (PyTuple_CheckExact(obj)) /* immutable already */
        return PyTuple_GET_SIZE(obj) <= max ? Py_NewRef(obj) : PyTuple_GetSlice(obj, 0, max + 1);
    if (PyUnicode_Check(obj) || PyBytes_Check(obj) || PyByteArray_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s, not %.100s", what, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyObject *it = PyObject_GetIter(obj);
    if (!it) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s, not %.100s", what, Py_TYPE(obj)->tp_name);
        }
        return NULL;
    }
    PyObject *list = PyList_New(0), *item; /* private to this function: no user code can reach it */
    while (list && PyList_GET_SIZE(list) <= max && (item = PyIter_Next(it)) != NULL) {
        if (PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_DECREF(item);
    }
    Py_DECREF(it);
    if (list && PyErr_Occurred()) Py_CLEAR(list); /* __next__ raised */
    PyObject *items = list ? PyList_AsTuple(list) : NULL;
    Py_XDECREF(list);
    return items;
}

int bkpy_seconds_arg(PyObject *obj, const char *what, double *seconds)
{
    double s = PyFloat_AsDouble(obj);
    if (s == -1.0 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear(); /* an int too large for a float */
        s = -1.0;
    }
    if (!(s > 0.0 && s <= BKPY_MAX_SECONDS)) {
        char limit[32]; /* PyErr_Format has no %g */
        PyOS_snprintf(limit, sizeof limit, "%g", BKPY_MAX_SECONDS);
        PyErr_Format(PyExc_ValueError, "%s must be a number of seconds in (0, %s], not %.40R", what, limit, obj);
        return -1;
    }
    *seconds = s;
    return 0;
}

int bkpy_seed_arg(PyObject *obj, unsigned long long *seed)
{
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "seed must be an int, not %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *index = PyNumber_Index(obj);
    if (!index) return -1;
    *seed = PyLong_AsUnsignedLongLong(index);
    Py_DECREF(index);
    if (PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "seed must be in range(2**64)");
        return -1;
    }
    return 0;
}
