"""Where a callable is defined in source text, and what that definition says: the names a
library gives its annotations only there. The stub file (``.pyi``) a stub-only package
gives an unannotated module (:mod:`objmcp.model.describe.stubpackages`), its package ships
beside it, or typeshed gives a standard library module
(:mod:`objmcp.model.describe.typeshed`).

A compiled module (mypyc's, which ships its Python source beside it) is described by
that source too, and a C extension whose classes name their package as their module
(kiwisolver's ``Solver``, made in ``kiwisolver._cext``) by the stub beside the extension.

Both are read with :mod:`ast` (:mod:`objmcp.model.describe.stubsyntax`); only ``import``
statements and simple assignments of names (``_T = TypeVar("_T")``, ``_Format: TypeAlias
= Literal["short", "long"]``) are run (:mod:`objmcp.model.describe.boundnames`, which
reads a module's ``if TYPE_CHECKING:`` block too), never the rest of the file; a stub's
``if sys.version_info >= ...:`` and ``if sys.platform == ...:`` blocks are read as this
Python would. What does not import or evaluate is left out. What the ``def`` s found
write is read by :mod:`objmcp.model.describe.writtensignatures`.
"""

from __future__ import annotations

import functools
import importlib.machinery
import inspect
import os
import sys
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .boundnames import source_namespace, stub_namespace, typeshed_namespace
from .stubpackages import stub_package_paths
from .stubsyntax import Definition, assigned_from, file_definitions, imported_from
from .typeshed import typeshed_stub
from .writtensignatures import positional_names, said_annotations, written_signature

__all__ = [
    "StubDefinition",
    "stub_definition",
    "stub_signature",
]


@dataclass(frozen=True)
class StubDefinition:
    """What a stub file says of one callable: its annotations as text (by the stub's
    parameter names, and ``return``), its positional parameters in order, the names
    that text is written in, and the parameters its overloads annotate differently (left
    out of ``annotations``: ``math.ceil``'s ``x``)."""

    annotations: dict[str, str]
    positional: tuple[str, ...]
    namespace: dict[str, object]
    disagreed: tuple[str, ...] = ()


def stub_definition(function: Callable[..., object]) -> StubDefinition | None:
    """The definition the stub file of ``function``'s module or package gives it (a
    method's found in its class, its ``self`` left out), else typeshed's for a standard
    library callable, or None. Where a stub overloads the function, a parameter keeps
    the annotation all overloads agree on."""
    found = _stub_definitions(function)
    if found is None:
        return None
    definitions, namespace, method = found
    said = said_annotations(definitions, method)
    return StubDefinition(
        {name: texts.pop() for name, texts in said.items() if len(texts) == 1},
        positional_names(definitions, method),
        namespace,
        tuple(name for name, texts in said.items() if len(texts) > 1),
    )


def stub_signature(function: Callable[..., object]) -> inspect.Signature | None:
    """The signature a stub writes for ``function`` (``self`` or ``cls`` left out); a
    default the stub leaves as ``...`` is :data:`~objmcp.model.describe.textsignatures.OMITTED`.
    Of overloads, the implementation a source gives beside them, else the parameters
    they all name alike (a default only some give, or that they give differently, is
    OMITTED); None when they name them differently.
    For the C callables :mod:`inspect` cannot read (``datetime.fromisocalendar``)."""
    found = _stub_definitions(function)
    return None if found is None else written_signature(found[0], found[2])


def _stub_definitions(
    function: Callable[..., object],
) -> tuple[list[Definition], dict[str, object], bool] | None:
    """The stub's ``def`` s of ``function`` (overloads together), the names they are
    written in, and whether they take ``self`` or ``cls`` first."""
    qualname = getattr(function, "__qualname__", None)
    if not isinstance(qualname, str) or "<" in qualname:
        return None
    if isinstance(function, type):  # a class is called as its __init__ or __new__ is
        for maker in ("__init__", "__new__"):
            found_maker = _stub_definitions_named(function, f"{qualname}.{maker}")
            if found_maker is not None:
                return found_maker[0], found_maker[1], True
        for maker in ("__init__", "__new__"):
            reexported = _reexported_definitions(function, f"{qualname}.{maker}")
            if reexported is not None:
                return reexported[0], reexported[1], True
        return None
    return _stub_definitions_named(function, qualname)


def _reexported_definitions(
    cls: type, qualname: str
) -> tuple[list[Definition], dict[str, object]] | None:
    """The ``def`` s of ``qualname`` in the stub of the compiled module ``cls``'s module
    takes the class from by an assignment (``RSAPublicNumbers =
    rust_openssl.rsa.RSAPublicNumbers``, ``rust_openssl`` imported by a ``from`` import):
    a Rust or C class that names the re-exporting module as its own."""
    module = sys.modules.get(cls.__module__)
    file = getattr(module, "__file__", None)
    if module is None or not isinstance(file, str) or not file.endswith(".py"):
        return None
    dotted = assigned_from(file, cls.__name__)
    if dotted is None:
        return None
    head, _, rest = dotted.partition(".")
    imported = imported_from(file).get(head)
    if imported is None:
        return None
    name = ".".join(filter(None, (*imported, rest)))
    runtime: object = module
    for part in dotted.split("."):
        runtime = getattr(runtime, part, None)
    if getattr(runtime, cls.__name__, None) is not cls:
        return None
    found = _module_stub(name)
    if found is None:
        return None
    path, package = found
    definitions = file_definitions(path).get(qualname)
    return (definitions, stub_namespace(path, package)) if definitions else None


def _module_stub(name: str) -> tuple[str, str] | None:
    """The stub of the module ``name`` (a compiled submodule that has no file of its own,
    ``pkg._rust.openssl.rsa``): under the folder of its nearest enclosing module that
    has a file, ``_rust/openssl/rsa.pyi`` or ``.../rsa/__init__.pyi``; and the package
    its relative imports start from."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        file = getattr(sys.modules.get(".".join(parts[:cut])), "__file__", None)
        if not isinstance(file, str):
            continue
        folder, file_name = os.path.split(file)
        stem = file_name.split(".", 1)[0]
        root = folder if stem == "__init__" else os.path.join(folder, stem)
        rest = parts[cut:]
        if not rest:
            candidates = [(os.path.join(folder, stem + ".pyi"), ".".join(parts[:-1]))]
        else:
            candidates = [(os.path.join(root, *rest) + ".pyi", ".".join(parts[:-1]))]
        candidates.append((os.path.join(root, *rest, "__init__.pyi"), name))
        return next(((path, package) for path, package in candidates if os.path.isfile(path)), None)
    return None


def _stub_definitions_named(
    function: Callable[..., object], qualname: str
) -> tuple[list[Definition], dict[str, object], bool] | None:
    """:func:`_stub_definitions` of ``function`` under the name ``qualname``."""
    owner = _owner_class(function)
    module = inspect.getmodule(function)
    if module is None and owner is not None:  # a C method of an instance names no module
        module = sys.modules.get(owner.__module__)
    found: tuple[list[Definition], dict[str, object]] | None = None
    for path, package in _stub_paths(module) if module is not None else ():
        definitions = file_definitions(path).get(qualname)
        if definitions and path.endswith(".py"):
            found = definitions, source_namespace(module.__name__, path) if module else {}
            break
        if definitions:  # the classes a stub defines are its module's, at run time
            found = definitions, {**vars(module), **stub_namespace(path, package)}
            break
    if found is None and module is not None:
        found = _typeshed_definition(module.__name__, qualname)
    for base in owner.__mro__ if found is None and owner is not None else ():
        # a C method a class inherits is in its base's stub (``date.fromisocalendar``)
        name = f"{base.__qualname__}.{qualname.rpartition('.')[2]}"
        found = _typeshed_definition(base.__module__, name)
        if found is not None:
            break
    if found is None:
        return None
    definitions, namespace = found
    method = "." in qualname and not any(
        getattr(d, "id", None) == "staticmethod" for d in definitions[0].decorator_list
    )
    return definitions, namespace, method


def _owner_class(function: object) -> type | None:
    """The class of a C method (``sqlite3.Connection.execute``, bound or not;
    ``datetime.datetime.now``), whose module the method itself does not name."""
    owner = getattr(function, "__objclass__", None)
    bound = getattr(function, "__self__", None)
    if owner is None and bound is not None and not isinstance(bound, types.ModuleType):
        owner = bound if isinstance(bound, type) else type(bound)  # a class method's class
    return owner if isinstance(owner, type) else None


def _typeshed_definition(
    module_name: str, qualname: str, hops: int = 0
) -> tuple[list[Definition], dict[str, object]] | None:
    """typeshed's definition of ``module_name``'s ``qualname``, following the stub's
    re-exports (``posix.stat`` is ``from os import stat as stat``)."""
    path = typeshed_stub(module_name)
    if path is None or hops > 3:
        return None
    definitions = file_definitions(path).get(qualname)
    if definitions:
        loaded = sys.modules.get(module_name)  # the classes the stub defines: the module's
        return definitions, {**(vars(loaded) if loaded else {}), **typeshed_namespace(module_name)}
    head, _, rest = qualname.partition(".")
    imported = imported_from(path).get(head)
    if imported is None:
        return None
    module, name = imported
    return _typeshed_definition(module, name + ("." + rest if rest else ""), hops + 1)


def _stub_paths(module: types.ModuleType) -> Iterable[tuple[str, str]]:
    """A stub-only package's stubs of ``module`` (:mod:`objmcp.model.describe.stubpackages`,
    first, as PEP 561 orders them), then the stub beside ``module``'s file (and, for a
    compiled module, its Python source, which mypyc ships beside it), then the
    ``__init__.pyi`` of each package it is in (a compiled ``_rustyfish`` is described by
    its package's stub), then the stubs of the compiled modules in its own folder (whose
    C classes may name the package as theirs)."""
    yield from stub_package_paths(module.__name__)
    file = getattr(module, "__file__", None)
    if not file:
        return
    folder, name = os.path.split(file)
    package = module.__package__ or ""
    stem = name.split(".", 1)[0]
    yield os.path.join(folder, stem + ".pyi"), package
    if _is_compiled(name):
        yield os.path.join(folder, stem + ".py"), package
    parts = package.split(".") if package else []
    own_folder = folder
    while parts:
        yield os.path.join(folder, "__init__.pyi"), ".".join(parts)
        folder, parts = os.path.dirname(folder), parts[:-1]
    for compiled in _compiled_stems(own_folder) if package else ():
        if compiled != stem:
            yield os.path.join(own_folder, compiled + ".pyi"), package


def _is_compiled(file_name: str) -> bool:
    return file_name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


@functools.cache
def _compiled_stems(folder: str) -> tuple[str, ...]:
    """The names of the compiled modules in ``folder`` that have a stub beside them."""
    try:
        names = os.listdir(folder)
    except OSError:
        return ()
    stems = {name.split(".", 1)[0] for name in names if _is_compiled(name)}
    return tuple(sorted(stem for stem in stems if f"{stem}.pyi" in names))
