"""What a delivery job works with."""

from __future__ import annotations

from dataclasses import dataclass

from service.events.event_store import EventStore
from service.pipeline import Pipeline
from service.webhooks.outbound import Outbound
from service.webhooks.runners import Runner
from service.webhooks.settings import WebhookSettings


@dataclass
class Deliveries:
    pipeline: Pipeline
    settings: WebhookSettings
    outbound: Outbound
    runner: Runner

    @property
    def store(self) -> EventStore:
        return self.pipeline.store
