"""What a callable says of itself: its signature, its docs, its types, its schema.

``signatures`` (and ``textsignatures`` for C callables), ``annotations``, ``hints`` (predicates
over type hints), ``docs`` and ``doctypes`` (what a docstring says, and the types it names),
``paramtypes`` with ``describedtypes`` and ``classnames`` (a type from what a library says
when its code says little), ``sources`` (with ``stubsyntax``, ``boundnames`` and
``writtensignatures``), ``typeshed``, ``stubpackages`` and ``typetext``
(types written outside the code), ``schema`` (hints to JSON Schema), ``handwritten``
(schemas an author writes), ``keywords`` (``**kwargs`` sent whole) and ``specs`` (tool
definitions in the shapes LLM APIs take).
"""
