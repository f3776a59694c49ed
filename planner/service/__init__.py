"""Orchestration: ingest into the store, replay stored traces, price replays, saved scenarios."""
