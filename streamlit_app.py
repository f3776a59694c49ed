"""GPU Capacity Planner: the app's entrypoint, `streamlit run streamlit_app.py`.

The frame (page config, language switch, menu) is `planner.ui.frame`; pages live in
`pages/`. Calling `st.navigation` turns off Streamlit's auto-discovery of that folder, so
`planner.ui.frame.PAGES` is the whole menu.
"""

from planner.ui import frame

frame.run()
