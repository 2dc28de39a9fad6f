"""The ``blokus/*-v0`` Gymnasium ids, registered without ``import blokus`` importing Gymnasium.

Gymnasium 1.0 removed its plugin system (the ``gymnasium.envs`` entry points it used to load on
import), so a package cannot have ``gymnasium.make("blokus/Duo-v0")`` work in a process that never
imports it. What works: ``gymnasium.make("blokus:blokus/Duo-v0")`` (Gymnasium imports the module
before ``:``), or ``import blokus`` before or after ``import gymnasium``. ``import blokus``
registers the ids at once when Gymnasium is already imported; otherwise it leaves a one-shot hook
on ``sys.meta_path`` that registers them right after Gymnasium's own import, so that ``import
blokus`` alone stays light (Gymnasium costs tens of milliseconds) and ``import blokus`` then
``import gymnasium`` (the order isort gives) still finds the ids.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import types

from blokus.variants import VARIANTS

# One id per variant, its name in CamelCase: blokus/Classic-v0, blokus/Classic2-v0, blokus/Classic3-v0,
# blokus/ClassicTeams-v0, blokus/Duo-v0.
ENV_IDS = {f"blokus/{''.join(word.capitalize() for word in name.split('_'))}-v0": name for name in VARIANTS}


def register_envs() -> None:
    """Registers the ``blokus/*-v0`` ids with Gymnasium; ids already registered are left alone, so
    calling it again neither warns nor replaces them. There is no need to call it: ``import blokus``
    does, at once if Gymnasium is imported, else right after Gymnasium's import.

    Raises ``ModuleNotFoundError`` when Gymnasium is not installed."""
    import gymnasium

    for env_id, variant in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            # entry points by name: blokus.gym_env is imported by the first make, not here
            gymnasium.register(env_id, entry_point="blokus.gym_env:BlokusEnv",
                               vector_entry_point="blokus.vector:VectorEnv", kwargs={"variant": variant})


class _RegisterAfterGymnasium:
    """A meta path finder that finds ``gymnasium`` as the other finders do, and has its loader call
    ``register_envs`` once the package has run; then leaves ``sys.meta_path``. (Duck-typed: the
    base classes in importlib.abc cost 20 ms to import.)"""

    def __init__(self) -> None:
        self._finding = False  # our own find_spec call below must skip us

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "gymnasium" or self._finding:
            return None
        self._finding = True
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            self._finding = False
        if spec is None or spec.loader is None:
            return None  # not installed: the import fails as it would without us
        spec.loader = _RegisteringLoader(spec.loader, self)
        return spec


class _RegisteringLoader:
    def __init__(self, loader: importlib.machinery.SourceFileLoader, finder: _RegisterAfterGymnasium) -> None:
        self._loader = loader
        self._finder = finder

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        # Gymnasium's module keeps its own loader, as if we had never been there
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)
        register_envs()


def register_now_or_after_gymnasium_import() -> None:
    """Registers the ids if Gymnasium is imported, else once it is (``import blokus`` calls this)."""
    if sys.modules.get("gymnasium") is not None:  # None: an import of it is made to fail
        register_envs()
    elif not any(isinstance(finder, _RegisterAfterGymnasium) for finder in sys.meta_path):
        sys.meta_path.insert(0, _RegisterAfterGymnasium())
