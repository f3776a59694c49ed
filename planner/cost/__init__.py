"""Prices demand: bare-metal TCO, cloud bills, finance (NPV, break-even) and the ledger."""
