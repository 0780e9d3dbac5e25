"""The one command pipeline (load → decide → append + project → publish → schedule) that HTTP
routes and worker jobs both call, with its deciders, state cache and after-commit hooks."""

from service.pipeline.outcome import Outcome, OutcomeStatus
from service.pipeline.pipeline import Pipeline

__all__ = ["Outcome", "OutcomeStatus", "Pipeline"]
