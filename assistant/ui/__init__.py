"""Pages of the Streamlit app, one module per page; app.py wires them in."""
