"""Event kinds of the replay's heap, in the order they apply at one instant.

The heap holds `(time, kind, seq, job)`; at equal times lower kinds come first, so freed
GPUs are visible to arrivals and requeues. Kinds from `BURST` on are deadlines that may have
gone stale (the job started or ended meanwhile): the loop drops those before they move the
clock. A new kind is appended here and handled by the plugin that pushes it.
"""

from typing import Final

# Final: compiled code uses the numbers themselves, not a lookup of the name per event
FINISH: Final = 0
TERMINATED: Final = 1
TIMEOUT: Final = 2
REQUEUE: Final = 3
RETRY: Final = 4
ONLINE: Final = 5
BURST: Final = 6
WITHDRAW: Final = 7
KINDS: Final = 8
