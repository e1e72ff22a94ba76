"""The search benchmark's requests for ``torch``: written from its documentation (the docstrings
of the sampled functions and of ``deg2rad_``, ``log``, ``einsum``, ``set_num_interop_threads``,
``set_deterministic_debug_mode``, ``sparse_compressed_tensor`` and
``import_ir_module_from_buffer``; ``import_ir_module`` has only a signature, so its use was read
from ``torch.jit.load``, which calls it for a file path; the PyTorch API reference known), before
any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "torch"

REQUESTS: tuple[Request, ...] = (
    Request("convert degree angles into radians", "terse", ("deg2rad", "deg2rad_")),
    Request(
        "I want to read the current debug level (off, warn or error) for nondeterministic"
        " operations.",
        "sentence",
        ("get_deterministic_debug_mode",),
    ),
    Request(
        "deserialize a TorchScript archive from a file path into a ScriptModule",
        "jargon",
        ("import_ir_module",),
    ),
    Request(
        "check which entries in my data are ordinary numbers, not missing or endlessly large",
        "layman",
        ("isfinite",),
    ),
    Request(
        "compute one hash of all elemnts in a tensr to quickly compare contents",
        "typos",
        ("hash_tensor",),
    ),
    Request("padded fixed-length non-zero indices", "terse", ("nonzero_static",)),
    Request(
        "I want to limit how many CPU threads are used to parallelize work inside a single"
        " operation.",
        "sentence",
        ("set_num_threads",),
    ),
    Request(
        "normalized exponential over logits along a dimension to get class probabilities",
        "jargon",
        ("softmax",),
    ),
    Request(
        "overwrite my numbers with the power 2.718 must be raised to to reach each one, no copy",
        "layman",
        ("log_",),
    ),
    Request("regularised lower incomplete gama functon of two tensors", "typos", ("igamma",)),
    Request("smallest and largest value together", "terse", ("aminmax",)),
    Request(
        "I need both the standard deviation and the average of a tensor along a dimension in one"
        " call.",
        "sentence",
        ("std_mean",),
    ),
    Request(
        "reduce along a dim returning the lowest values and their indices as a namedtuple",
        "jargon",
        ("min",),
    ),
    Request(
        "multiply two many-sided tables of numbers and add up over the sides they share",
        "layman",
        ("tensordot", "einsum"),
    ),
    Request(
        "create a sparce matrix from row pointer offsets, column indicies and values",
        "typos",
        ("sparse_csr_tensor", "sparse_compressed_tensor"),
    ),
)
