"""Every job named by a string has a body: each RQ job path imports and names a function, and
each webhook job name has its body in `Webhooks.run_job`'s table, which runs no other."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import pytest

from service.scheduling import job_names
from service.webhooks.dispatch import JOB_BODIES


def _resolve(path: str) -> Callable[..., object]:
    module, _, name = path.rpartition(".")
    function = getattr(importlib.import_module(module), name)
    assert callable(function), path
    return function  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", job_names.RQ_JOBS)
def test_each_rq_job_path_names_a_function_of_the_workers(path: str) -> None:
    assert path.startswith("workers.jobs.")
    _resolve(path)


def test_a_misspelled_job_path_does_not_resolve() -> None:
    with pytest.raises(AttributeError):
        _resolve("workers.jobs.take_due_decisoin")


def test_each_webhook_job_has_a_body_and_no_body_is_left_without_a_name() -> None:
    assert len(set(job_names.WEBHOOK_JOBS)) == len(job_names.WEBHOOK_JOBS)
    assert set(JOB_BODIES) == set(job_names.WEBHOOK_JOBS)


def test_every_job_name_in_the_module_is_listed() -> None:
    """A constant added to `job_names` but to neither list would go unchecked."""
    listed = {*job_names.RQ_JOBS, *job_names.WEBHOOK_JOBS}
    constants = {v for k, v in vars(job_names).items() if k.isupper() and isinstance(v, str)}
    assert constants == listed
