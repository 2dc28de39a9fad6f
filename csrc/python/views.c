/* Read-only NumPy views of C memory. */
#include "python/binding.h"

PyObject *bkpy_view(PyObject *owner, int nd, npy_intp *dims, npy_intp *strides, int typenum, void *data)
{
    PyObject *arr = PyArray_New(&PyArray_Type, nd, dims, typenum, strides, data, 0, 0, NULL);
    if (!arr) return NULL;
    Py_INCREF(owner);
    if (PyArray_SetBaseObject((PyArrayObject *)arr, owner) < 0) { /* steals owner even on failure */
        Py_DECREF(arr);
        return NULL;
    }
    return arr; /* flags 0: not writeable */
}
