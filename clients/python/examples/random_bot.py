"""A random bot: any legal command.

    cya-bot play random_bot.py --server http://127.0.0.1:8000 --new 4p \
        --bots greedy,random,random --games 20
"""

import random

from cya_client.models import Command, GameView


def choose(view: GameView, legal: list[Command]) -> Command:
    """Called whenever the decision is yours: your view of the game and every command you may
    send now, each ready to post. Return one of them."""
    return random.choice(legal)
