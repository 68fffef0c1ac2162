"""Short embedding calls (a question, a few tags) through ONNX Runtime, with the sentence-transformers model's
own weights and tokenizer.

The model's whole forward pass (transformer and pooling) is exported once to an ONNX file in a cache
folder, named by a digest of the model's files (names, sizes) and the torch version, and run on a fixed
number of threads.
`QueryRuntime.load` returns None where this cannot hold — onnxruntime missing, an export that fails, or
vectors that differ from torch's for a check sentence — and the caller then keeps torch.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)
# Vectors of one text from both runtimes must agree to this cosine, or the ONNX path is not used.
MIN_AGREEMENT = 0.9999
OPSET = 17


def model_digest(model_path: str) -> str:
    """Names and sizes of the model's files and the torch version, hashed: one export serves every copy of a
    model (each venv has its own); a file that no longer matches its weights fails the check at load."""
    import torch

    digest = hashlib.sha256(f"torch {torch.__version__} opset {OPSET}".encode())
    root = Path(model_path)
    for path in sorted(root.rglob("*")) if root.is_dir() else []:
        if path.is_file():
            stat = path.stat()
            digest.update(f"{path.relative_to(root)} {stat.st_size}".encode())
    return digest.hexdigest()[:16]


class QueryRuntime:
    """Embeds a few texts in one ONNX Runtime call; `encode` returns unit vectors, one row per text."""

    def __init__(self, model: Any, session: Any) -> None:
        self._model, self._session = model, session
        self._inputs = [i.name for i in session.get_inputs()]

    @classmethod
    def load(cls, model: Any, model_path: str, folder: Path, threads: int, check: str) -> QueryRuntime | None:
        """Export `model` as ONNX into `folder` (or reuse that file) and open it on `threads` threads; None,
        logged, where the runtime is missing, the export fails or its vector for `check` differs from torch's.
        A reused file that fails is exported again once."""
        try:
            import onnxruntime  # noqa: F401
        except ImportError:
            log.info("onnxruntime is not installed: short embedding calls stay on torch")
            return None
        path = folder / f"{Path(model_path).name}-{model_digest(model_path)}.onnx"
        problem = ""
        for _ in range(2):
            exported = not path.exists()
            try:
                if exported:
                    export(model, path)
                runtime = cls(model, open_session(path, threads))
                expected = model.encode([check], normalize_embeddings=True, show_progress_bar=False)[0]
                agreement = float(np.dot(runtime.encode([check])[0], expected))
            except Exception as exc:  # any failure leaves the torch path, which is correct, only slower
                problem = f"the ONNX export or session failed ({exc})"
            else:
                if agreement >= MIN_AGREEMENT:
                    return runtime
                problem = f"ONNX and torch vectors differ (cosine {agreement:.6f})"
            if exported:
                break
            path.unlink(missing_ok=True)  # a stale or damaged file: export once more
        log.warning("short embedding calls stay on torch: %s", problem)
        return None

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        features = tokenize(self._model, texts)
        feeds = {name: features[name].numpy().astype(np.int64) for name in self._inputs}
        vectors = self._session.run(None, feeds)[0].astype(np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.asarray(vectors / np.maximum(norms, 1e-12), dtype=np.float32)


def tokenize(model: Any, texts: Sequence[str]) -> Any:
    """The model's own preprocessing (token ids, attention mask), as torch tensors."""
    preprocess = getattr(model, "preprocess", None) or model.tokenize
    return preprocess(list(texts))


def open_session(path: Path, threads: int) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def export(model: Any, path: Path) -> None:
    """Write `model`'s forward pass (token ids -> sentence embedding) to `path` as ONNX, atomically."""
    import torch

    features = tokenize(model, ["an example sentence to trace", "and another"])
    names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in features]

    class Forward(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, *tensors: torch.Tensor) -> torch.Tensor:
            return self.model(dict(zip(names, tensors, strict=True)))["sentence_embedding"]

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".onnx.tmp")
    os.close(fd)
    try:
        with torch.inference_mode():
            torch.onnx.export(
                Forward().eval(),
                tuple(features[n] for n in names),
                tmp,
                input_names=names,
                output_names=["sentence_embedding"],
                dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in names}, "sentence_embedding": {0: "batch"}},
                opset_version=OPSET,
                dynamo=False,
            )
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
