"""What the ``def`` s a stub (or a Python source) writes for one name say, read from
their syntax: the signature (of the implementation beside overloads, else the one
they agree on), each parameter's annotations as text, and their positional
parameters.
"""

from __future__ import annotations

import ast
import inspect

from .stubsyntax import Definition
from .textsignatures import OMITTED, agreed

__all__ = ["positional_names", "said_annotations", "written_signature"]


def written_signature(definitions: list[Definition], method: bool) -> inspect.Signature | None:
    """The signature the ``def`` s of one name write (:func:`~.sources.stub_signature`'s rule;
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


def _is_overload(definition: Definition) -> bool:
    return any(
        ast.unparse(decorator).rpartition(".")[2] == "overload"
        for decorator in definition.decorator_list
    )


def _signature(definition: Definition, method: bool) -> inspect.Signature | None:
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


def said_annotations(definitions: list[Definition], method: bool) -> dict[str, set[str]]:
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


def positional_names(definitions: list[Definition], method: bool) -> tuple[str, ...]:
    """The stub's positional parameters, when every overload names the same ones."""
    names = {
        tuple(a.arg for a in [*d.args.posonlyargs, *d.args.args][method:]) for d in definitions
    }
    return names.pop() if len(names) == 1 else ()
