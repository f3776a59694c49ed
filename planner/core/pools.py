"""Ending a pool of worker processes, the one way the sweep and the twin check do it."""

from multiprocessing.pool import Pool


def end_pool(pool: Pool | None, *, now: bool = False) -> None:
    """Stop `pool`'s workers and wait for them: at once (`now`: on an error or a cancel,
    their work is dropped) or once the work already given them is done."""
    if pool is None:
        return
    if now:
        pool.terminate()
    else:
        pool.close()
    pool.join()
