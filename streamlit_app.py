"""GPU Capacity Planner: the app's frame (page config and navigation), nothing else.

Run with `streamlit run streamlit_app.py`. Pages live in `pages/`; calling `st.navigation`
turns off Streamlit's auto-discovery of that folder, so this list is the whole menu.
"""

import streamlit as st

st.set_page_config(page_title="GPU Capacity Planner", page_icon=":material/memory:", layout="wide")

navigation = st.navigation(
    [
        st.Page("pages/overview.py", title="Overview", icon=":material/dashboard:", default=True),
        st.Page("pages/history.py", title="Job history", icon=":material/upload_file:"),
        st.Page("pages/replay.py", title="Replay", icon=":material/play_circle:"),
        st.Page("pages/prices.py", title="Prices", icon=":material/sell:"),
        st.Page("pages/compare.py", title="Compare", icon=":material/compare_arrows:"),
        st.Page("pages/capacity.py", title="Capacity", icon=":material/tune:"),
    ]
)
navigation.run()
