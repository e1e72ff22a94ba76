"""Progressive discovery: a whole library behind meta-tools, found by what it does.

``metatools`` (``search_tools``, ``describe_tools``, ``call_tool``), ``search`` (the
lexical ranking) and ``words`` (text made search terms).
"""
