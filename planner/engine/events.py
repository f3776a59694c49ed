"""Event kinds of the replay's heap, in the order they apply at one instant.

The heap holds `(time, kind, seq, job)`; at equal times lower kinds come first, so freed
GPUs are visible to arrivals and requeues. Kinds from `BURST` on are deadlines that may have
gone stale (the job started or ended meanwhile): the loop drops those before they move the
clock. A new kind is appended here and handled by the plugin that pushes it.
"""

FINISH, TERMINATED, TIMEOUT, REQUEUE, RETRY, ONLINE, BURST, WITHDRAW = range(8)
KINDS = 8
