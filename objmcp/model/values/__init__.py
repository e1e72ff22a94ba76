"""Values both ways: JSON arguments as Python values, Python results as JSON and content.

In: ``validate`` (with ``quickcheck`` first), ``convert`` (with ``mismatch``, ``unionorder``,
``scalars``, ``standardkinds`` and ``remade``), and the kinds it reads: ``arrays``,
``built`` (a library's classes from their constructors), ``subclasses``, ``durations``,
``timezones``, ``reals``, ``pysource``. Out: ``jsonable``, ``exports``, ``shapes``,
``nonfinite``, ``content`` and ``media`` (the result a call gives), ``printed`` (what a call
prints). Text: ``jsontext`` (JSON both ways) and ``jsoncount`` (how many values a text holds
before it is parsed).
"""
