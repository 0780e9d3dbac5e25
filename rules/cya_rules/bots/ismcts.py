"""The ismcts bot: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012,
"Information Set Monte Carlo Tree Search"; OpenSpiel's `algorithms/ismcts.py` is the reference).

Each iteration deals the cards the bot has not seen into a state consistent with its view
(`determinize.sample_state`), walks one tree shared by every deal, and plays on with the rules
engine (`execute`). The tree is open-loop: a node is the sequence of commands from the
decision at hand, so what a deal hides never splits it, and each command's statistics count
the iterations it was available in (the subset-armed bandit of ISMCTS). A node's children are
widened progressively, the most promising untried command first (by the expert's scores at the
decision at hand, by the rollout policy's deeper down); past the tree a fast
greedy (`rollout`) plays on for a few turns and the position is scored by each seat's chance to
win, from the totals and the stacks. The answer is the most visited command, and the search
stops as soon as no other command can catch it in the iterations left (what Leela Chess Zero
calls smart pruning): the rest could not change the answer, only spend time and random numbers.

The search runs a fixed number of iterations, so the level's strength (and a rating of
`bot:ismcts`) is the same on every machine and a choice reproduces from the view and the rng
seed. A cap on the CPU time of the searching thread guards a machine too slow to run them (the
time other processes take on a loaded machine does not count against it, so load alone never
weakens the bot); a wall-clock budget, what a turn clock leaves (`within`), stops it sooner.
A search a cap or budget stopped short says so (`Search.capped`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from cya_rules import GameState, RuleViolation, execute, legal_commands
from cya_rules.commands import SeatCommand
from cya_rules.views import GameView

from .determinize import Deals
from .expert import expert_scores
from .rollout import edition_cards, rollout_scores
from .rollout_turn import rollout_command

# The level as the service runs it, and as the ladder measures it: DEFAULT_ITERATIONS a
# decision (bench/bots_strength.py: about 100 ms on one core of the reference machine), stopped
# sooner only by CPU_CAP_S of the thread's CPU time or a turn clock (levels.choose).
DEFAULT_ITERATIONS = 300
CPU_CAP_S = 0.5
ROLLOUT_STEPS = 12  # commands the rollout policy plays past the tree before the position is scored
EXPLORATION = 0.5  # UCB's exploration constant, rewards being win chances in [0, 1]
WIDENING = 1.5  # a node may try WIDENING * visits ** WIDEN_POWER children
WIDEN_POWER = 0.5
SCORE_SCALE = 40_000  # dollars of lead worth e (2.7) times the chance to win
CLOCK_EVERY = 4  # iterations between looks at the clocks (a thread's CPU clock is a system call)


Prior = Callable[[GameView, Sequence[SeatCommand]], list[float]]


class Search(NamedTuple):
    command: SeatCommand
    iterations: int  # those run, skipped ones included
    seconds: float
    # Iterations whose deal the view allows but in which the engine refused a move: they
    # teach the tree nothing. Many would mean `determinize` deals what cannot be.
    skipped: int = 0
    capped: bool = False  # stopped by a time budget or cap before its iteration budget
    decided: bool = False  # stopped before its iteration budget: no other answer was in reach


class _Arm:
    """One command's statistics at a node: how many iterations followed it and their reward
    sum, and how many it was available in (the subset-armed bandit's count)."""

    __slots__ = ("available", "reward", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.available = 0


class _Node:
    """Per command its `_Arm`; children by (command, next seat)."""

    __slots__ = ("children", "prior", "stats", "visits")

    def __init__(self) -> None:
        self.stats: dict[SeatCommand, _Arm] = {}
        self.children: dict[tuple[SeatCommand, int], _Node] = {}
        self.prior: dict[SeatCommand, float] = {}  # the order in which children are tried
        self.visits = 0


class Ismcts:
    """A policy (`Policy`): `Ismcts()(view, legal, rng)` searches and answers."""

    def __init__(self, budget_s: float | None = None,
                 iterations: int | None = DEFAULT_ITERATIONS,
                 prior: Prior = expert_scores, rollout_steps: int = ROLLOUT_STEPS,
                 cpu_cap_s: float | None = CPU_CAP_S, stop_when_decided: bool = True) -> None:
        """`budget_s`: wall-clock seconds; `cpu_cap_s`: CPU seconds of the searching thread;
        `stop_when_decided`: stop once the answer cannot change (the same answer, sooner)."""
        if budget_s is None and iterations is None and cpu_cap_s is None:
            raise ValueError("a search needs a time budget, an iteration budget, or both")
        self.budget_s = budget_s
        self.iterations = iterations
        self.prior = prior
        self.rollout_steps = rollout_steps
        self.cpu_cap_s = cpu_cap_s
        self.stop_when_decided = stop_when_decided

    def within(self, budget_s: float) -> Ismcts:
        """The same search, thinking for at most `budget_s` seconds of wall-clock time."""
        budget = budget_s if self.budget_s is None else min(self.budget_s, budget_s)
        return Ismcts(budget, self.iterations, self.prior, self.rollout_steps, self.cpu_cap_s,
                      self.stop_when_decided)

    def __call__(self, view: GameView, legal: Sequence[SeatCommand],
                 rng: random.Random) -> SeatCommand:
        return self.search(view, legal, rng).command

    def search(self, view: GameView, legal: Sequence[SeatCommand],
               rng: random.Random) -> Search:
        started = time.perf_counter()
        if len(legal) == 1:
            return Search(legal[0], 0, 0.0)
        deadline = None if self.budget_s is None else started + self.budget_s
        cpu_deadline = None if self.cpu_cap_s is None else time.thread_time() + self.cpu_cap_s
        root = _Node()
        root.prior = dict(zip(legal, self.prior(view, legal), strict=True))
        deals = Deals(view)
        done = skipped = 0
        capped = decided = False
        budget, stop_when_decided = self.iterations, self.stop_when_decided
        while budget is None or done < budget:
            if done and not done % CLOCK_EVERY and (
                    (deadline is not None and time.perf_counter() >= deadline) or (
                        cpu_deadline is not None and time.thread_time() >= cpu_deadline)):
                capped = budget is not None
                break
            if stop_when_decided and budget is not None and _out_of_reach(root, budget - done):
                decided = True
                break
            if not self._iterate(deals, legal, root, rng):
                skipped += 1
            done += 1
        stats = root.stats
        best = max(legal, key=lambda c: (stats[c].visits, stats[c].reward) if c in stats
                   else (0, 0))
        return Search(best, done, time.perf_counter() - started, skipped, capped, decided)

    # One iteration: deal, descend (expanding one node), roll out, score, back up.

    def _iterate(self, deals: Deals, legal: Sequence[SeatCommand], root: _Node,
                 rng: random.Random) -> bool:
        """False for an iteration skipped (`Search.skipped`)."""
        state = deals.sample(rng)
        node: _Node | None = root
        path: list[tuple[_Node, SeatCommand, int]] = []
        moves: Sequence[SeatCommand] = legal
        try:
            while node is not None and state.status != "finished":
                seat = state.pending_seats()[0]
                if path:
                    moves = legal_commands(state, seat)
                command, expanding = self._select(node, state, seat, moves, rng)
                path.append((node, command, seat))
                _, state = execute(state, command, seat)
                if expanding or state.status == "finished":
                    break
                key = (command, state.pending_seats()[0])
                node = node.children.get(key)
                if node is None:
                    node = node_ = _Node()
                    path[-1][0].children[key] = node_
            state = self._roll_out(state, rng)
        except RuleViolation:
            return False  # a deal the view allows but the engine refuses a move in
        rewards = _rewards(state)
        for n, command, seat in path:
            arm = n.stats[command]
            arm.visits += 1
            arm.reward += rewards[seat]
            n.visits += 1
        return True

    def _select(self, node: _Node, state: GameState, seat: int, moves: Sequence[SeatCommand],
                rng: random.Random) -> tuple[SeatCommand, bool]:
        """The command to follow at `node`, and whether it is newly tried (the tree grows)."""
        stats = node.stats
        tried: list[SeatCommand] = []
        untried: list[SeatCommand] = []
        for m in moves:
            arm = stats.get(m)
            if arm is None:
                arm = stats[m] = _Arm()
            arm.available += 1
            (tried if arm.visits else untried).append(m)
        if untried and len(tried) < max(1, WIDENING * node.visits ** WIDEN_POWER):
            if len(untried) == 1:
                return untried[0], True
            prior = node.prior
            unranked = [m for m in untried if m not in prior]
            if unranked:
                prior.update(zip(unranked, rollout_scores(state, seat, unranked), strict=True))
            return max(untried, key=lambda m: (prior[m], rng.random())), True
        best, best_value = tried[0], -math.inf
        for m in tried:
            arm = stats[m]
            value = arm.reward / arm.visits + EXPLORATION * math.sqrt(
                math.log(arm.available) / arm.visits)
            if value > best_value:
                best, best_value = m, value
        return best, False

    def _roll_out(self, state: GameState, rng: random.Random) -> GameState:
        for _ in range(self.rollout_steps):
            if state.status == "finished":
                break
            seat = state.pending_seats()[0]
            _, state = execute(state, rollout_command(state, seat, rng), seat)
        return state


def _out_of_reach(root: _Node, left: int) -> bool:
    """Whether the root's most visited command leads every other by more than the `left`
    iterations could add to one of them: then it is the answer however they go (a command
    never tried counts 0 visits)."""
    first = second = 0
    for arm in root.stats.values():
        visits = arm.visits
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first - second > left


def _rewards(state: GameState) -> list[float]:
    """Each seat's chance to win, as far as the position tells: 1 or a share of it once the game
    is over; else a softmax of totals plus stacks."""
    n = state.players
    if state.status == "finished":
        share = 1 / len(state.winners)
        return [share if s in state.winners else 0.0 for s in range(n)]
    values = edition_cards(state.ruleset.edition).values  # `stack_value`, from a plain dict
    stacks = state.stacks or ((),) * n
    scores = [state.totals[s] + sum([values[c] for cs in stacks[s] for c in cs.cards])
              for s in range(n)]
    top = max(scores)
    weights = [math.exp((x - top) / SCORE_SCALE) for x in scores]
    total = sum(weights)
    return [w / total for w in weights]
