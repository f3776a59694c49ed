"""A small replayed TCO scenario for the chargeback, CSV and `planner report` tests: three
teams (one named like a spreadsheet formula) on two 8-GPU A100 servers with Kueue quotas, a
hybrid that keeps one server, and one cloud option."""

from pathlib import Path

HOSTILE = '=HYPERLINK("http://x","y")'

TRACE = """job_id,submit_time,duration_s,pods,gpus,gpu_type,queue,user,status
j1,2026-01-05T00:00:00Z,36000,1,8,A100,team-a,u1,completed
j2,2026-01-05T01:00:00Z,36000,1,4,A100,team-b,u2,completed
j3,2026-01-05T02:00:00Z,18000,1,4,A100,team-a,u1,completed
j4,2026-01-06T00:00:00Z,3600,1,4,A100,"=HYPERLINK(""http://x"",""y"")",-u3,completed
"""

SCENARIO = """name: small teams
currency: USD
trace: trace.csv
horizons_years: [3]
self_hosted:
  - {gpu: A100, servers: 2, gpus_per_server: 8}
cloud:
  - {name: AWS H100 on-demand, provider: AWS, gpu: H100}
hybrid:
  burst_after_s: 3600
  servers: {A100: 1}
scheduling:
  queues:
    flavors:
      - {name: a100, gpu_type: A100}
    cluster_queues:
      - {name: team-a, quotas: [{flavor: a100, gpus: 8}]}
      - {name: team-b, quotas: [{flavor: a100, gpus: 4}]}
      - {name: spare, quotas: [{flavor: a100, gpus: 4}]}
    default_cluster_queue: spare
"""


def write_scenario(folder: Path, name: str = "scenario.yaml", title: str = "small teams") -> Path:
    """The trace and the scenario (named `title`) in `folder`; the scenario's path."""
    (folder / "trace.csv").write_text(TRACE, encoding="utf-8")
    path = folder / name
    path.write_text(SCENARIO.replace("name: small teams", f"name: {title}"), encoding="utf-8")
    return path
