"""`python -m workers`: the same as `cya worker`, with settings from the environment."""

from service.wiring.settings import Settings
from workers.main import run

if __name__ == "__main__":
    run(Settings.from_env())
