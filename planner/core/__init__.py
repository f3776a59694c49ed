"""The base layer: job and error types, engine settings and text helpers every layer uses."""
