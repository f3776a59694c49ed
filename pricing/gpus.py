"""GPU names as the price book stores them: a model ("A100") plus memory and form factor.

"A100 80GB SXM", "NVIDIA-A100-SXM4-80GB", "a100_80g" and "A100-80GB" all name an A100 with
80 GB; matching prices to a trace's GPU type compares the model, and the memory only when
both sides give it. Pure string handling: no I/O.
"""

import re
from typing import Literal, NamedTuple

GpuForm = Literal["SXM", "PCIe", "NVL"]

# Longer names first, so "A100" is not read as "A10" nor "H200" as "H20".
_MODELS = re.compile(
    r"(?<![A-Z0-9])(GB200|B200|B100|H200|H100|H800|H20|A800|A100|A6000|A40|A30|A10G|A10"
    r"|L40S|L40|L20|L4|V100|P100|T4|MI300X|MI250X|RTX\s?PRO\s?6000|RTX\s?\d{4})(?![0-9])",
    re.IGNORECASE,
)
_MEMORY = re.compile(r"(?<![A-Z0-9.])(\d{1,3})\s*(?:GB|GIB|G)(?![A-Z0-9])", re.IGNORECASE)
_FORM = re.compile(r"(?<![A-Z])(SXM\d?|PCIE|NVL)(?![A-Z])", re.IGNORECASE)
_VENDOR = re.compile(r"\b(NVIDIA|TESLA|GEFORCE|AMD|INSTINCT)\b", re.IGNORECASE)
_FORMS: dict[str, GpuForm] = {"SXM": "SXM", "PCIE": "PCIe", "NVL": "NVL"}


class GpuName(NamedTuple):
    model: str
    mem_gb: int | None
    form: GpuForm | None


def parse_gpu(text: str) -> GpuName:
    """Split a GPU description into model, memory (GB) and form factor (SXM, PCIe, NVL)."""
    memory = _MEMORY.search(text)
    form = _FORM.search(text)
    rest = _FORM.sub(" ", _MEMORY.sub(" ", text))
    known = _MODELS.search(rest)
    if known:
        model = re.sub(r"\s+", "", known.group(1)).upper()
    else:
        words = re.split(r"[\s_\-/]+", _VENDOR.sub(" ", rest).strip())
        model = "-".join(word.upper() for word in words if word)
    return GpuName(
        model=model,
        mem_gb=int(memory.group(1)) if memory else None,
        form=_FORMS[form.group(1).upper().rstrip("0123456789")] if form else None,
    )


def gpu_model(text: str) -> str:
    """The normalised model alone: "NVIDIA A100-SXM4-80GB" -> "A100"."""
    return parse_gpu(text).model


def gpu_matches(wanted: GpuName, model: str, mem_gb: int | None) -> bool:
    """True when a stored (model, memory) can be `wanted`; memory counts when both give it."""
    if wanted.model != model:
        return False
    return wanted.mem_gb is None or mem_gb is None or wanted.mem_gb == mem_gb
