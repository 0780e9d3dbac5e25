"""The SDK's webhooks area against the real service: a bot endpoint and a subscription made,
read, rotated and deleted through `cya_client`."""

from __future__ import annotations

import httpx
from cya_client import Client, models

from . import bots
from .servers import Receiver, serving, wait_for
from .test_event_webhooks import takes_all


def test_given_the_sdk_then_every_webhook_call_works_against_the_service(
        api: httpx.Client) -> None:
    with serving(Receiver(bots.plays_well)) as bot_url, serving(Receiver(takes_all)) as url, \
            Client(str(api.base_url)) as cya:
        cya.api_key = cya.players.create("sdk-bot").api_key
        made = cya.webhooks.register_bot(bot_url)
        assert made.secret.startswith("whsec_") and cya.webhooks.bot().url == bot_url
        assert cya.webhooks.rotate_bot().secret != made.secret
        sub = cya.webhooks.subscribe(url, ["game_finished"])
        game = cya.games.create(models.NewGame(
            ruleset=models.RuleSet(players=2, end_mode="quick"),
            bots=[models.BotSpec(level="random")])).game_id
        cya.games.start(game)
        wait_for(lambda: cya.webhooks.deliveries(sub.subscription_id).deliveries)
        log = cya.webhooks.deliveries(sub.subscription_id, game_id=game)
        assert log.deliveries[0].type == "game_finished"
        again = cya.webhooks.redeliver(sub.subscription_id, log.deliveries[0].message_id)
        assert again.game_id == game
        attempts = cya.webhooks.bot_attempts(game_id=game).attempts
        assert attempts and {a.outcome for a in attempts} == {"accepted"}
        assert cya.webhooks.enable(sub.subscription_id).enabled
        assert cya.webhooks.rotate(sub.subscription_id).secret != sub.secret
        assert [s.subscription_id for s in cya.webhooks.subscriptions().subscriptions] == [
            sub.subscription_id]
        cya.webhooks.unsubscribe(sub.subscription_id)
        cya.webhooks.delete_bot()
        assert cya.webhooks.subscriptions().subscriptions == []
