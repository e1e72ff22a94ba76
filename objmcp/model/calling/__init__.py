"""Calling: the tools and the toolbox that runs them.

``tool`` (one published callable), ``toolbox`` (the object model's front), ``outcome`` (a
call's outcome made a result), ``threads`` (where sync tools run), ``hooks`` (before, after,
on error), ``per`` (an object per session or caller), ``inject`` (parameters objmcp fills
in), ``caller`` (who is calling) and ``headers`` (parameters mirrored into request headers).
"""
