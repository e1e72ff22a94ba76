"""The search benchmark's requests for ``shapely``: written from its documentation (the
docstrings of the sampled functions and classes, and of ``prepare``, ``union_all``,
``count_coordinates`` and ``geometrycollections``; the Shapely manual and API reference
pages), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "shapely"

REQUESTS: tuple[Request, ...] = (
    Request("check geometry preparation status", "terse", ("is_prepared",)),
    Request(
        "I need one shape object that holds a mix of points, lines and polygons together.",
        "sentence",
        ("GeometryCollection",),
    ),
    Request(
        "non-disjoint spatial predicate: do two geometries share any point",
        "jargon",
        ("intersects",),
    ),
    Request(
        "how far could a corner be nudged before the outline becomes broken",
        "layman",
        ("minimum_clearance",),
    ),
    Request(
        "how far apart are two geometires in planr units",
        "typos",
        ("distance",),
    ),
    Request("non-convex enclosing boundary around points", "terse", ("concave_hull",)),
    Request(
        "I want to build faces from a network of lines and also get the dangles and cut edges.",
        "sentence",
        ("polygonize_full",),
    ),
    Request(
        "enum of GEOS type codes such as POINT, LINESTRING and POLYGON",
        "jargon",
        ("GeometryType",),
    ),
    Request(
        "make many closed loops at once from lists of corner coordinates, outlines not filled in",
        "layman",
        ("linearrings",),
    ),
    Request(
        "merge a list of polygns into one shape, disolving the overlaps",
        "typos",
        ("unary_union", "union_all"),
    ),
    Request("count vertices in geometry", "terse", ("get_num_coordinates", "count_coordinates")),
    Request(
        "I need the smallest-area rectangle, possibly rotated, that encloses my shape.",
        "sentence",
        ("oriented_envelope", "minimum_rotated_rectangle"),
    ),
    Request(
        "mitre, round or bevel corner treatment when offsetting a geometry",
        "jargon",
        ("BufferJoinStyle",),
    ),
    Request(
        "does this shape store heights or elevations for its points",
        "layman",
        ("has_z",),
    ),
    Request(
        "overall bounding box extnt of an array of geometires",
        "typos",
        ("total_bounds",),
    ),
)
