"""Streamlit helpers for the app: cached store access, later charts and shared widgets.

The only Streamlit code outside `pages/` and `streamlit_app.py`. Nothing in the core,
the ingest edge or the store imports this package (import-linter checks it).
"""
