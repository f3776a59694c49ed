"""Cluster & policy: placeholder until the editor lands."""

import streamlit as st

from planner.ui import frame

frame.require_menu()
st.title("Cluster & policy")
