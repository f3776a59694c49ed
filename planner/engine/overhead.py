"""Container overhead: multi-node jobs run slower on ordinary networks and storage.

Our defaults, stated as assumptions (no public benchmark pins them down): the slowdown of a
job spread over several pods is 1 + (network + storage penalty) x (1 - 1/pods), because the
share of a step spent exchanging gradients grows like (n - 1)/n in a ring all-reduce. A
single pod pays nothing. With RDMA/GPUDirect and a parallel file system a large job stays
within 5% (1.03); plain TCP with NFS costs about 35% (1.35).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from planner.core.model import Job

Network = Literal["rdma", "ipvs", "iptables", "tcp"]
Storage = Literal["local-nvme", "parallel-fs", "nfs"]

NETWORK_PENALTY: dict[str, float] = {"rdma": 0.0, "ipvs": 0.08, "iptables": 0.12, "tcp": 0.20}
STORAGE_PENALTY: dict[str, float] = {"local-nvme": 0.0, "parallel-fs": 0.03, "nfs": 0.15}
NETWORK_HELP = {
    "rdma": "RDMA / GPUDirect (InfiniBand, RoCE): no penalty",
    "ipvs": "pod network with kube-proxy in IPVS mode: +8%",
    "iptables": "overlay network with kube-proxy in iptables mode: +12%",
    "tcp": "plain TCP without RDMA: +20%",
}
STORAGE_HELP = {
    "local-nvme": "data staged on local NVMe: no penalty",
    "parallel-fs": "parallel file system (Lustre, GPFS): +3%",
    "nfs": "NFS: +15%",
}


@dataclass(frozen=True, slots=True)
class Overhead:
    network: Network = "rdma"
    storage: Storage = "local-nvme"

    def factor(self, pods: int) -> float:
        """Run-time multiplier for a job of `pods` pods (1.0 for one pod)."""
        if pods <= 1:
            return 1.0
        penalty = NETWORK_PENALTY[self.network] + STORAGE_PENALTY[self.storage]
        return 1.0 + penalty * (1.0 - 1.0 / pods)


def stretched(run_s: list[float], jobs: Sequence[Job], overhead: Overhead | None) -> list[float]:
    """Each job's run time in the replay: `run_s` (its own, `arrivals.read_jobs`) stretched by
    `overhead` if set."""
    if overhead is None:  # the jobs' own floats: `x * 1.0` would be a new object a job
        return run_s
    return [run * overhead.factor(job.pods) for run, job in zip(run_s, jobs, strict=True)]
