"""The one command pipeline (load → decide → append + project → publish → schedule) that HTTP
routes and worker jobs both call, with its state cache and its after-commit hooks."""

from service.pipeline.pipeline import GameNotFound, Outcome, Pipeline

__all__ = ["GameNotFound", "Outcome", "Pipeline"]
