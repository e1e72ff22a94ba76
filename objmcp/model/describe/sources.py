"""Names a library gives its annotations only in source text: the imports and aliases of
a module's ``if TYPE_CHECKING:`` block, and the annotations of a stub file (``.pyi``)
a stub-only package gives an unannotated module (:mod:`objmcp.model.describe.stubpackages`), its
package ships beside it, or typeshed gives a standard library module
(:mod:`objmcp.model.describe.typeshed`).

A compiled module (mypyc's, which ships its Python source beside it) is described by
that source too, and a C extension whose classes name their package as their module
(kiwisolver's ``Solver``, made in ``kiwisolver._cext``) by the stub beside the extension.

Both are read with :mod:`ast`; only ``import`` statements and simple assignments of
names (``_T = TypeVar("_T")``, ``_Format: TypeAlias = Literal["short", "long"]``) are
run, never the rest of the file; a stub's ``if sys.version_info >= ...:`` and
``if sys.platform == ...:`` blocks are read as this Python would. What does not import
or evaluate is left out.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.machinery
import importlib.util
import inspect
import keyword
import os
import sys
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .hints import BYTES_LIKE
from .stubpackages import stub_package_paths
from .textsignatures import OMITTED, agreed
from .typeshed import typeshed_stub

__all__ = [
    "StubDefinition",
    "definitions_in",
    "stub_definition",
    "stub_signature",
    "type_checking_names",
    "written_signature",
]


def type_checking_names(module: types.ModuleType) -> dict[str, object]:
    """The names ``module`` binds only for type checkers, in its ``if TYPE_CHECKING:``
    blocks (``import datetime as dt`` there makes ``dt``)."""
    return dict(_type_checking_names(module.__name__, getattr(module, "__file__", None)))


@functools.cache
def _type_checking_names(module_name: str, path: str | None) -> dict[str, object]:
    """What ``module_name``'s ``if TYPE_CHECKING:`` blocks bind, read in the source
    ``path`` (a compiled module's is the one beside it)."""
    module = sys.modules.get(module_name)
    tree = _tree(path) if module is not None and path else None
    if module is None or tree is None:
        return {}
    statements = [
        statement
        for node in tree.body
        if isinstance(node, ast.If) and _is_type_checking(node.test)
        for statement in node.body
    ]
    namespace = dict(vars(module))
    return _bind(statements, module.__package__ or "", namespace)


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
    said = _said(definitions, method)
    return StubDefinition(
        {name: texts.pop() for name, texts in said.items() if len(texts) == 1},
        _positional(definitions, method),
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


def written_signature(definitions: list[_Definition], method: bool) -> inspect.Signature | None:
    """The signature the ``def`` s of one name write (:func:`stub_signature`'s rule;
    ``self`` or ``cls`` left out when ``method``)."""
    implementations = [d for d in definitions if not _is_overload(d)]
    if len(implementations) == 1:
        return _signature(implementations[0], method)
    if implementations:
        return None
    signatures = [_signature(d, method) for d in definitions]
    if any(s is None for s in signatures):
        return None
    return agreed([s for s in signatures if s is not None])


def _is_overload(definition: _Definition) -> bool:
    return any(
        ast.unparse(decorator).rpartition(".")[2] == "overload"
        for decorator in definition.decorator_list
    )


def _signature(definition: _Definition, method: bool) -> inspect.Signature | None:
    """The signature one ``def`` writes, ``self`` or ``cls`` left out when ``method``."""
    arguments = definition.args
    kind = inspect.Parameter
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [kind.empty] * (len(positional) - len(arguments.defaults)) + [
        _default(d) for d in arguments.defaults
    ]
    parameters = [
        kind(
            a.arg,
            kind.POSITIONAL_ONLY if i < len(arguments.posonlyargs) else kind.POSITIONAL_OR_KEYWORD,
            default=d,
        )
        for i, (a, d) in enumerate(zip(positional, defaults, strict=True))
    ][method:]
    if arguments.vararg is not None:
        parameters.append(kind(arguments.vararg.arg, kind.VAR_POSITIONAL))
    parameters += [
        kind(a.arg, kind.KEYWORD_ONLY, default=kind.empty if d is None else _default(d))
        for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
    ]
    if arguments.kwarg is not None:
        parameters.append(kind(arguments.kwarg.arg, kind.VAR_KEYWORD))
    try:
        return inspect.Signature(parameters)
    except ValueError:
        return None


def _default(node: ast.expr) -> object:
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return OMITTED
    return OMITTED if value is Ellipsis else value


def _stub_definitions(
    function: Callable[..., object],
) -> tuple[list[_Definition], dict[str, object], bool] | None:
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
) -> tuple[list[_Definition], dict[str, object]] | None:
    """The ``def`` s of ``qualname`` in the stub of the compiled module ``cls``'s module
    takes the class from by an assignment (``RSAPublicNumbers =
    rust_openssl.rsa.RSAPublicNumbers``, ``rust_openssl`` imported by a ``from`` import):
    a Rust or C class that names the re-exporting module as its own."""
    module = sys.modules.get(cls.__module__)
    file = getattr(module, "__file__", None)
    if module is None or not isinstance(file, str) or not file.endswith(".py"):
        return None
    dotted = _assigned_from(file, cls.__name__)
    if dotted is None:
        return None
    head, _, rest = dotted.partition(".")
    imported = _imported_from(file).get(head)
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
    definitions = _definitions(path).get(qualname)
    return (definitions, _stub_namespace(path, package)) if definitions else None


@functools.cache
def _assigned_from(path: str, name: str) -> str | None:
    """The dotted module path a source's top-level ``name = a.b.name`` takes ``name``
    from (``a.b``), or None."""
    tree = _tree(path)
    for node in _live(tree.body if tree is not None else []):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        named = isinstance(target, ast.Name) and target.id == name
        if named and isinstance(value, ast.Attribute) and value.attr == name:
            written = ast.unparse(value.value)
            return written if all(p.isidentifier() for p in written.split(".")) else None
    return None


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
) -> tuple[list[_Definition], dict[str, object], bool] | None:
    """:func:`_stub_definitions` of ``function`` under the name ``qualname``."""
    owner = _owner_class(function)
    module = inspect.getmodule(function)
    if module is None and owner is not None:  # a C method of an instance names no module
        module = sys.modules.get(owner.__module__)
    found: tuple[list[_Definition], dict[str, object]] | None = None
    for path, package in _stub_paths(module) if module is not None else ():
        definitions = _definitions(path).get(qualname)
        if definitions and path.endswith(".py"):
            found = definitions, _source_namespace(module.__name__, path) if module else {}
            break
        if definitions:  # the classes a stub defines are its module's, at run time
            found = definitions, {**vars(module), **_stub_namespace(path, package)}
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
) -> tuple[list[_Definition], dict[str, object]] | None:
    """typeshed's definition of ``module_name``'s ``qualname``, following the stub's
    re-exports (``posix.stat`` is ``from os import stat as stat``)."""
    path = typeshed_stub(module_name)
    if path is None or hops > 3:
        return None
    definitions = _definitions(path).get(qualname)
    if definitions:
        loaded = sys.modules.get(module_name)  # the classes the stub defines: the module's
        return definitions, {**(vars(loaded) if loaded else {}), **_typeshed_namespace(module_name)}
    head, _, rest = qualname.partition(".")
    imported = _imported_from(path).get(head)
    if imported is None:
        return None
    module, name = imported
    return _typeshed_definition(module, name + ("." + rest if rest else ""), hops + 1)


@functools.cache
def _imported_from(path: str) -> dict[str, tuple[str, str]]:
    """What a stub file imports by absolute ``from`` imports: each name it binds, the
    module and the name there (``posix.pyi``'s ``stat``: ``("os", "stat")``)."""
    tree = _tree(path)
    found: dict[str, tuple[str, str]] = {}
    for node in _live(tree.body if tree is not None else []):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                found.setdefault(alias.asname or alias.name, (node.module, alias.name))
    return found


_Definition = ast.FunctionDef | ast.AsyncFunctionDef


@functools.cache
def _definitions(path: str) -> dict[str, list[_Definition]]:
    """The ``def`` s of a stub file by qualified name (``Box.put``), overloads together."""
    tree = _tree(path)
    return definitions_in(tree.body if tree is not None else [])


def definitions_in(body: list[ast.stmt]) -> dict[str, list[_Definition]]:
    """The ``def`` s of a stub's statements by qualified name, overloads together."""
    found: dict[str, list[_Definition]] = {}

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in _live(body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                _dunder_names_positional_only(node.args, skip=1 if prefix else 0)
                found.setdefault(prefix + node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):
                walk(node.body, f"{prefix}{node.name}.")

    walk(body, "")
    return found


def _dunder_names_positional_only(arguments: ast.arguments, skip: int) -> None:
    """Make the leading parameters named ``__name`` (after ``skip``: a method's
    ``self``) positional-only under the name ``name``, as type checkers read the older
    convention (tomli's ``loads(__s: str)``), where ``/`` is not written."""
    if arguments.posonlyargs:
        return
    taken = {a.arg for a in [*arguments.args, *arguments.kwonlyargs]}
    count = skip
    while count < len(arguments.args) and _is_dunder_name(arguments.args[count].arg):
        count += 1
    if count == skip:
        return
    for argument in arguments.args[skip:count]:
        bare = argument.arg[2:]
        if bare not in taken and bare.isidentifier() and not keyword.iskeyword(bare):
            argument.arg = bare
    arguments.posonlyargs, arguments.args = arguments.args[:count], arguments.args[count:]


def _is_dunder_name(name: str) -> bool:
    return name.startswith("__") and not name.endswith("__")


def _positional(definitions: list[_Definition], method: bool) -> tuple[str, ...]:
    """The stub's positional parameters, when every overload names the same ones."""
    names = {
        tuple(a.arg for a in [*d.args.posonlyargs, *d.args.args][method:]) for d in definitions
    }
    return names.pop() if len(names) == 1 else ()


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


def _said(definitions: list[_Definition], method: bool) -> dict[str, set[str]]:
    """Each annotated parameter's annotations over the overloads, as text (and
    ``return``'s, when there is one definition)."""
    said: dict[str, set[str]] = {}
    for definition in definitions:
        arguments = definition.args
        every = [*arguments.posonlyargs, *arguments.args][method:] + arguments.kwonlyargs
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        for argument in every:
            if argument.annotation is not None:
                said.setdefault(argument.arg, set()).add(ast.unparse(argument.annotation))
        if definition.returns is not None and len(definitions) == 1:
            said["return"] = {ast.unparse(definition.returns)}
    return said


@functools.cache
def _stub_namespace(path: str, package: str) -> dict[str, object]:
    """The names a library's stub binds; what it imports from typeshed's own
    (``_typeshed``'s ``StrPath``) or a name only the standard library's stubs have
    (``subprocess._CMD``) is read there."""
    tree = _tree(path)
    return _bind(list(_live(tree.body)) if tree else [], package, {}, stub=True, typeshed=True)


def _source_namespace(module_name: str, path: str) -> dict[str, object]:
    """The names the Python source ``path`` of a compiled module writes its annotations
    in: the compiled module's own (the source's statements are never run again), and
    those of its ``if TYPE_CHECKING:`` block."""
    module = sys.modules.get(module_name)
    return {**_type_checking_names(module_name, path), **(vars(module) if module else {})}


_BINDING: set[str] = set()
"""The typeshed stubs whose names are being bound (stubs import from each other)."""


@functools.cache
def _typeshed_namespace(module_name: str) -> dict[str, object]:
    """The names typeshed's stub of ``module_name`` binds: what it imports (from the
    module itself, or from another stub where the module has no such name, as
    ``_typeshed``'s aliases) and its aliases."""
    path = typeshed_stub(module_name)
    tree = _tree(path) if path is not None else None
    if tree is None or module_name in _BINDING:
        return {}
    _BINDING.add(module_name)
    try:
        return _bind(list(_live(tree.body)), module_name, {}, stub=True, typeshed=True)
    finally:
        _BINDING.discard(module_name)


def _live(body: list[ast.stmt]) -> Iterable[ast.stmt]:
    """The statements of a stub's ``body`` that hold for this Python: the branch of each
    ``if sys.version_info ...`` or ``if sys.platform ...`` it takes (an ``if`` on
    anything else is left out)."""
    for node in body:
        if not isinstance(node, ast.If):
            yield node
            continue
        holds = _holds(node.test)
        if holds is not None:
            yield from _live(node.body if holds else node.orelse)


def _holds(test: ast.expr) -> bool | None:
    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    if names != {"sys"} or any(isinstance(n, ast.Call) for n in ast.walk(test)):
        return None
    try:
        return bool(eval(compile(ast.Expression(test), "<stub>", "eval"), {"sys": sys}))
    except Exception:
        return None


@functools.cache
def _tree(path: str) -> ast.Module | None:
    try:
        with open(path, encoding="utf-8") as source:
            return ast.parse(source.read())
    except (OSError, SyntaxError, ValueError):
        return None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _bind(
    statements: list[ast.stmt],
    package: str,
    namespace: dict[str, object],
    *,
    stub: bool = False,
    typeshed: bool = False,
) -> dict[str, object]:
    """Run the imports and name assignments among ``statements`` in ``namespace``;
    return the names they bound (a name that does not import or evaluate stays unbound).
    ``stub``: a stub's imports take only modules loaded already or of the standard
    library (a stub names what type checkers read: ``numpy/__init__.pyi`` imports
    ``numpy.distutils``, which would import setuptools). ``typeshed``: a name a module
    does not have is looked for in its typeshed stub."""
    bound: dict[str, object] = {}
    for statement in statements:
        for name, find in _bindings(statement, package, stub, typeshed):
            try:
                bound[name] = find({**namespace, **bound})
            except Exception:
                continue
    return bound


Finder = Callable[[dict[str, object]], object]


def _bindings(
    statement: ast.stmt, package: str, stub: bool, typeshed: bool
) -> list[tuple[str, Finder]]:
    """The names a statement binds, each with how to find its value."""
    if isinstance(statement, ast.Import):
        return [
            (
                alias.asname or alias.name.split(".")[0],
                _importer(alias.name, alias.asname is None, stub),
            )
            for alias in statement.names
        ]
    if isinstance(statement, ast.ImportFrom):
        base = ("." * statement.level) + (statement.module or "")
        return [
            (alias.asname or alias.name, _from_importer(base, package, alias.name, stub, typeshed))
            for alias in statement.names
            if alias.name != "*"
        ]
    value: ast.expr | None = None
    if isinstance(statement, (ast.AnnAssign, ast.Assign)):
        value = statement.value
        targets = [statement.target] if isinstance(statement, ast.AnnAssign) else statement.targets
    if value is None or len(targets) != 1 or not isinstance(targets[0], ast.Name):
        return []
    code = compile(ast.Expression(value), "<annotations>", "eval")
    return [(targets[0].id, lambda namespace: eval(code, namespace))]


def _importer(name: str, top: bool, stub: bool) -> Finder:
    def find(namespace: dict[str, object]) -> object:
        module = _module(name, None, stub)
        return _module(name.split(".", maxsplit=1)[0], None, stub) if top else module

    return find


def _from_importer(base: str, package: str, name: str, stub: bool, typeshed: bool) -> Finder:
    def find(namespace: dict[str, object]) -> object:
        try:
            return _attribute_or_module(_module(base, package or None, stub), name, stub)
        except Exception:
            if (base, name) in BYTES_LIKE:  # _typeshed's ReadableBuffer: never importable
                return BYTES_LIKE[base, name]
            if not typeshed or base.startswith(".") or base == "typing":
                # what typing lacks, its stub does not bind either: a type checker's own
                # name (type_check_only) or a later Python's, and reading it costs 10 ms
                raise
            return _typeshed_namespace(base)[name]

    return find


def _attribute_or_module(source: types.ModuleType, name: str, stub: bool) -> object:
    if hasattr(source, name):
        return getattr(source, name)
    return _module(f"{source.__name__}.{name}", None, stub)


def _module(name: str, package: str | None, stub: bool) -> types.ModuleType:
    """The module ``name`` (relative to ``package``), imported; for a stub, only one
    loaded already or of the standard library (ImportError otherwise)."""
    absolute = importlib.util.resolve_name(name, package) if name.startswith(".") else name
    if stub:
        loaded = sys.modules.get(absolute)
        if loaded is not None:
            return loaded
        if absolute.partition(".")[0] not in sys.stdlib_module_names:
            raise ImportError(f"a stub's import of {absolute}, which is not loaded")
    return importlib.import_module(absolute)
