"""scipy's result objects, served as they are: JSON whose numbers are numbers, and none of the
private state some of them carry (``_xp``, a module, once leaked a site-packages path)."""

from __future__ import annotations

import json
import math
import statistics
from typing import Any

import numpy
import pytest
import scipy.optimize
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp import Toolbox
from objmcp.model.values.jsonable import to_jsonable

STATS = Toolbox(scipy.stats, include=["describe", "ttest_ind", "linregress", "pearsonr"])
SAMPLE = st.lists(st.integers(-1000, 1000), min_size=3, max_size=30).filter(
    lambda values: len(set(values)) > 1  # a sample with some spread
)


def served(tools: Toolbox, name: str, **arguments: Any) -> Any:
    """The JSON text of a call's result, decoded, once the call is known to have succeeded."""
    result = tools.call(name, arguments)
    assert not result.is_error, result.text
    return json.loads(result.text)


def plain_parts(data: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every key and leaf of JSON data, by path."""
    if isinstance(data, dict):
        return [(f"{path}.{key}", key) for key in data] + [
            part for key, item in data.items() for part in plain_parts(item, f"{path}.{key}")
        ]
    if isinstance(data, list):
        return [part for i, item in enumerate(data) for part in plain_parts(item, f"{path}[{i}]")]
    return [(path, data)]


def assert_plain(data: Any) -> None:
    """No private names, and every number a JSON number (not its text)."""
    keys = [(path, key) for path, key in plain_parts(data) if isinstance(key, str)]
    assert not [path for path, key in keys if key.startswith("_")], data
    for path, leaf in plain_parts(data):
        if isinstance(leaf, str):
            with pytest.raises(ValueError):  # a string is never a number in disguise
                float(leaf)
            assert "site-packages" not in leaf, (path, leaf)


@settings(max_examples=30, deadline=None)
@given(SAMPLE)
def test_describe_gives_its_statistics_as_numbers(sample: list[int]) -> None:
    data = served(STATS, "describe", a=sample)
    assert_plain(data)
    assert set(data) == {"nobs", "minmax", "mean", "variance", "skewness", "kurtosis"}
    assert data["nobs"] == len(sample)
    assert data["minmax"] == [min(sample), max(sample)]
    assert math.isclose(data["mean"], statistics.fmean(sample), rel_tol=1e-9, abs_tol=1e-9)
    assert math.isclose(data["variance"], statistics.variance(sample), rel_tol=1e-9)


@settings(max_examples=30, deadline=None)
@given(SAMPLE, SAMPLE)
def test_ttest_ind_gives_statistic_pvalue_and_df_and_nothing_private(
    a: list[int], b: list[int]
) -> None:
    data = served(STATS, "ttest_ind", a=a, b=b)
    assert_plain(data)
    assert set(data) == {"statistic", "pvalue", "df"}
    pooled = ((len(a) - 1) * statistics.variance(a) + (len(b) - 1) * statistics.variance(b)) / (
        len(a) + len(b) - 2
    )
    t = (statistics.fmean(a) - statistics.fmean(b)) / math.sqrt(pooled * (1 / len(a) + 1 / len(b)))
    assert math.isclose(data["statistic"], t, rel_tol=1e-6, abs_tol=1e-9)
    assert data["df"] == len(a) + len(b) - 2
    direct = scipy.stats.ttest_ind(a, b)
    assert data["pvalue"] == float(direct.pvalue)
    assert 0 <= data["pvalue"] <= 1


def test_linregress_and_pearsonr_give_their_named_numbers() -> None:
    x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    y = [2.1, 3.9, 6.2, 7.8, 10.1, 12.2]
    line = served(STATS, "linregress", x=x, y=y)
    assert_plain(line)
    slope, intercept = numpy.polyfit(x, y, 1)
    assert math.isclose(line["slope"], slope) and math.isclose(line["intercept"], intercept)
    assert set(line) == {"slope", "intercept", "rvalue", "pvalue", "stderr", "intercept_stderr"}
    correlation = served(STATS, "pearsonr", x=x, y=y)
    assert_plain(correlation)  # its _x, _y, _n, _axis and _alternative stay in
    assert math.isclose(correlation["statistic"], numpy.corrcoef(x, y)[0, 1])
    assert math.isclose(line["rvalue"], correlation["statistic"])


def lowest_point(center: float) -> object:
    """Where the parabola around ``center`` is lowest (scipy's OptimizeResult, a dict)."""
    return scipy.optimize.minimize_scalar(lambda x: (x - center) ** 2 + 1)


def lowest_of_bowl(a: float, b: float) -> object:
    """Where the bowl around (a, b) is lowest: x, jac and hess_inv are numpy arrays."""
    return scipy.optimize.minimize(lambda v: (v[0] - a) ** 2 + (v[1] - b) ** 2, [0.0, 0.0])


@pytest.mark.parametrize("center", [-3.5, 0.0, 2.25])
def test_an_optimize_result_is_a_mapping_of_plain_numbers(center: float) -> None:
    tools = Toolbox({"lowest_point": lowest_point, "lowest_of_bowl": lowest_of_bowl})
    point = served(tools, "lowest_point", center=center)
    assert_plain(point)
    assert point["success"] is True
    assert math.isclose(point["x"], center, abs_tol=1e-6)
    assert math.isclose(point["fun"], 1.0)
    assert isinstance(point["nit"], int) and isinstance(point["nfev"], int)
    bowl = served(tools, "lowest_of_bowl", a=center, b=-center)
    assert_plain(bowl)
    assert numpy.allclose(bowl["x"], [center, -center], atol=1e-5)
    assert numpy.array(bowl["hess_inv"]).shape == (2, 2)


def test_numpy_floats_become_plain_floats() -> None:
    data = to_jsonable(scipy.stats.describe([1.5, 2.5, 4.0]))
    assert isinstance(data, dict)
    assert [type(data[name]) for name in ("mean", "variance", "skewness")] == [float] * 3
    assert [type(number) for number in data["minmax"]] == [float, float]
