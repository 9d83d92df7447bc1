"""A learning baseline: sb3-contrib's MaskablePPO on Kassen's Gymnasium env (issue 34, item 5).

Needs the ``rl`` extra (PyTorch CPU and sb3-contrib) besides ``envs`` and ``scale`` (matplotlib)::

    pip install -e '.[envs,scale,rl]'
    nice -n 15 python examples/masked_ppo.py clans            # the 2-player clan game against random
    nice -n 15 python examples/masked_ppo.py skirmish         # the First Samurai Skirmish against random
    nice -n 15 python examples/masked_ppo.py skirmish --opponent greedy
    nice -n 15 python examples/masked_ppo.py skirmish --set shaping=0 --set lr_final=null  # a setting changed

The presets (:data:`PRESETS`) hold every training setting; ``--set KEY=VALUE`` changes one. The
skirmish's preset uses the wrapper's options (:class:`MaskedKassenEnv`): compact action slots
chosen in two steps (``factor``) and a potential-based shaping reward from the banners.

The learner plays the env's seat (0: the first clan, Red) against ``--opponent`` on every other
seat, with ``skip_single=True`` (it is only asked decisions with a choice). Training stops after
``--cpu-minutes`` of the process's CPU time spent learning (the curve's evaluations are not
counted), ``--max-steps`` learner steps or ``--wall-minutes``. Every ``--every`` steps the policy (greedy: the most
likely legal action) plays ``--curve-games`` games on fixed seeds; at the end it plays
``--eval-games`` (400) games on other fixed seeds, and the script prints the win rate with its
Wilson 95% interval. The curve and the numbers go to ``OUT.png`` and ``OUT.json``
(``docs/rl/<preset>-<opponent>`` by default). The seeds are fixed here, before any run:
training ``--seed`` (0), the curve's games ``CURVE_SEED + i``, the evaluation's ``EVAL_SEED + i``.

:class:`MaskedKassenEnv` (the wrapper: the observation tensor as a flat ``Box``, the mask as
``action_masks()``, what MaskablePPO asks of an env) needs neither torch nor sb3-contrib.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from kassen.envs.gym_env import KassenGymEnv

#: fixed before any run: the evaluation's games are ``EVAL_SEED + i``, the curve's ``CURVE_SEED + i``
EVAL_SEED = 1_000_000
CURVE_SEED = 2_000_000

#: preset -> the game, its scenario and the training settings used for the reference curves
#: (``max_episode_steps``: learner steps after which a game is cut, as a draw, None for never;
#: ``slots``: the compact action space's size, None for the env's whole index; ``factor``: an
#: action of several words chosen in two steps (:class:`MaskedKassenEnv`); ``shaping``: the
#: potential's scale, 0 for the env's reward alone; ``lr_final``: the learning rate falls linearly
#: from ``learning_rate`` to it over the CPU budget, None for a constant rate)
PRESETS: dict[str, dict[str, Any]] = {
    "clans": {"game": "clans", "scenario": "2-players", "cpu_minutes": 15.0, "every": 65_536,
              "envs": 4, "net": [256, 256], "n_steps": 1024, "batch_size": 1024, "n_epochs": 4, "ent_coef": 0.01,
              "learning_rate": 3e-4, "lr_final": 3e-5, "gamma": 0.99,
              "gae_lambda": 0.95, "max_episode_steps": 500, "slots": None, "factor": False, "shaping": 0.0},
    "skirmish": {"game": "cc-samurai", "scenario": None, "cpu_minutes": 6.0, "every": 32_768,
                 "envs": 8, "net": [128, 128], "n_steps": 1024, "batch_size": 512, "n_epochs": 4,
                 "ent_coef": 0.01, "learning_rate": 3e-4, "lr_final": 3e-5, "gamma": 0.99, "gae_lambda": 0.95,
                 "max_episode_steps": 20_000, "slots": 2048, "factor": True, "shaping": 0.5},
}


class ActionSlots:
    """A compact action space shared by the envs of one run: keys (the env's ``Discrete``
    integers, or with ``factor`` the two steps' words) numbered ``0, 1, ...`` in the order they
    are first legal for the learner, up to ``capacity``. The policy's output layer then has
    ``capacity`` units instead of the index's size (34,986 in C&C, most never legal in one
    scenario). A slot keeps its key for the whole run (training and evaluation share the table;
    ``--model`` saves it beside the model)."""

    def __init__(self, capacity: int) -> None:
        if capacity < 2:
            raise ValueError(f"action slots: capacity must be at least 2, not {capacity}")
        self.capacity = int(capacity)
        self.slot: dict[int | str, int] = {}
        self.action: list[int | str] = []

    def slots_of(self, keys: list[int] | list[str]) -> list[int]:
        """The slots of the keys, numbering the new ones."""
        out = []
        for i in keys:
            k = self.slot.get(i)
            if k is None:
                if len(self.action) >= self.capacity:
                    raise RuntimeError(f"action slots: all {self.capacity} are taken and action {i} "
                                       "is new: raise the preset's slots (--set slots=N)")
                k = self.slot[i] = len(self.action)
                self.action.append(i)
            out.append(k)
        return out


#: the observation's scalars whose difference (own - enemy) is the shaping potential, per game
POTENTIAL = {"cc-samurai": ("banners:own", "banners:enemy")}


class MaskedKassenEnv(gymnasium.Wrapper[np.ndarray, int, dict[str, np.ndarray], int]):
    """Kassen's Gymnasium env as MaskablePPO takes it: the observation tensor alone (a flat
    ``float32`` ``Box``) and the legal actions as ``action_masks()`` (a ``bool`` array over the
    env's ``Discrete`` actions, made from ``info["legal_ints"]``: no scan of the mask).

    Options, all off by default:

    - ``slots``: an :class:`ActionSlots` table; the action space is then ``Discrete(capacity)``
      over its slots (``action_masks()`` and ``step`` in slots).
    - ``factor`` (needs ``slots``): an action of several words is chosen in two learner steps:
      first its words but the last (``move E5``: which unit, and to do what), then its last word
      (``F6``: where), so the slots hold words, a few hundred hexes and prefixes, instead of
      every pair of hexes. An action of one word, or a prefix with a single completion, takes
      one step; a decision whose legal actions all share one prefix starts at the second step.
      The observation then ends with ``capacity`` more entries: at the second step a 1 at the
      slot of the prefix chosen, else zeros. The game moves on only when the action is whole.
    - ``shaping`` (> 0, needs ``gamma``): a potential-based shaping reward (Ng, Harada & Russell
      1999, so the best policy is unchanged): ``gamma * phi(s') - phi(s)`` added to the env's
      reward, ``phi = shaping * (own - enemy)`` from the observation's scalars named in
      :data:`POTENTIAL` (C&C: the banners won, each a fraction of the banners that win), and
      ``phi = 0`` once the game is over. It reads only the learner's own observation; the
      env's reward is ``info["env_reward"]``, and :func:`play` scores by it."""

    def __init__(self, env: KassenGymEnv, slots: ActionSlots | None = None, shaping: float = 0.0,
                 gamma: float = 0.99, factor: bool = False) -> None:
        super().__init__(env)  # type: ignore[arg-type]  # the observation changes: dict -> its tensor
        self.observation_space = env.observation_space["observation"]  # type: ignore[index]
        if factor and slots is None:
            raise ValueError("factor: needs action slots (slots=ActionSlots(n))")
        self.slots = slots
        self.factor = bool(factor)
        if slots is not None:
            self.action_space = gymnasium.spaces.Discrete(slots.capacity)  # type: ignore[assignment]
            if factor:
                n = int(self.observation_space.shape[0]) + slots.capacity
                self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (n,), np.float32)
        self._n = int(self.action_space.n)  # type: ignore[attr-defined]
        self._legal: list[int] = []
        self._ints: list[int] = []
        #: with ``factor``: prefix -> [(last word, env integer)], or a one-word action -> its integer
        self._groups: dict[str, list[tuple[str, int]]] = {}
        self._whole: dict[str, int] = {}
        self._prefix: str | None = None
        self._base = np.zeros(0, np.float32)
        self.shaping = float(shaping)
        self.gamma = float(gamma)
        self._phi_at: tuple[int, int] | None = None
        self._phi = 0.0
        if shaping:
            names = POTENTIAL.get(env.match.game.id)
            if names is None:
                raise ValueError(f"shaping: no potential for the game {env.match.game.id!r} "
                                 f"(one of {sorted(POTENTIAL)})")
            layout = env.match.encoder.layout
            base = layout.plane_size
            self._phi_at = (base + layout.scalars.index(names[0]), base + layout.scalars.index(names[1]))

    def _set_legal(self, info: dict[str, Any]) -> None:
        self._ints = info["legal_ints"]
        self._prefix = None
        if self.slots is None:
            self._legal = self._ints
        elif not self.factor:
            self._legal = self.slots.slots_of(self._ints)
        else:
            groups: dict[str, list[tuple[str, int]]] = {}
            whole: dict[str, int] = {}
            m = self.env.unwrapped.match  # type: ignore[attr-defined]
            acts = m.legal() if self._ints else []
            for act, i in zip(acts, self._ints):
                words = act.split()
                if len(words) == 1:
                    whole[act] = i
                else:
                    groups.setdefault(" ".join(words[:-1]), []).append((words[-1], i))
            self._groups, self._whole = groups, whole
            if not whole and len(groups) == 1:  # no choice of prefix: straight to the last word
                self._prefix = next(iter(groups))
                self._legal = self.slots.slots_of(["2 " + w for w, _ in groups[self._prefix]])
            else:
                self._legal = self.slots.slots_of(["1 " + a for a in whole] + ["1 " + p + " _" for p in groups])

    def _obs(self, obs: np.ndarray) -> np.ndarray:
        if not self.factor:
            return obs
        assert self.slots is not None
        extra = np.zeros(self.slots.capacity, np.float32)
        if self._prefix is not None:
            k = self.slots.slot.get("1 " + self._prefix + " _")
            if k is not None:
                extra[k] = 1.0
        return np.concatenate([obs, extra])

    def _potential(self, obs: np.ndarray, over: bool) -> float:
        if self._phi_at is None or over:
            return 0.0
        own, enemy = self._phi_at
        return self.shaping * float(obs[own] - obs[enemy])

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._set_legal(info)
        self._base = obs["observation"]
        self._phi = self._potential(self._base, False)
        return self._obs(self._base), info

    def _env_action(self, action: int) -> int | None:
        """The env's integer of the learner's action, None for the first step of a two-step one
        (``-1`` for an action not legal: the env then applies its ``illegal`` rule)."""
        a = int(action)
        if self.slots is None:
            return a
        if not 0 <= a < len(self.slots.action) or a not in self._legal:
            return -1
        key = self.slots.action[a]
        if not self.factor:
            return int(key)
        word = str(key)
        if self._prefix is not None:  # the second step: the last word
            return next(i for w, i in self._groups[self._prefix] if w == word[2:])
        if word[2:] in self._whole:
            return self._whole[word[2:]]
        prefix = word[2:-2]
        group = self._groups[prefix]
        if len(group) == 1:
            return group[0][1]
        self._prefix = prefix
        self._legal = self.slots.slots_of(["2 " + w for w, _ in group])
        return None

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        a = self._env_action(action)
        if a is None:  # half an action: the game waits for its last word
            r = (self.gamma - 1.0) * self._phi if self._phi_at is not None else 0.0
            info: dict[str, Any] = {"legal_ints": self._ints, "env_reward": 0.0, "half": True}
            return self._obs(self._base), r, False, False, info
        obs, reward, terminated, truncated, info = self.env.step(a)
        self._set_legal(info)
        self._base = obs["observation"]
        r = float(reward)
        if self._phi_at is not None:
            phi = self._potential(self._base, terminated)
            info["env_reward"] = r
            r += self.gamma * phi - self._phi
            self._phi = phi
        return self._obs(self._base), r, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(self._n, dtype=bool)
        mask[self._legal] = True
        return mask


def make_env(game: str, scenario: str | None, opponent: str, seat: int = 0,
             max_episode_steps: int | None = None, slots: ActionSlots | None = None,
             shaping: float = 0.0, gamma: float = 0.99, factor: bool = False) -> MaskedKassenEnv:
    """The wrapped env of one game against ``opponent`` (``skip_single=True``)."""
    return MaskedKassenEnv(KassenGymEnv(game, opponent=opponent, seat=seat, scenario=scenario,
                                        skip_single=True, max_steps=max_episode_steps),
                           slots=slots, shaping=shaping, gamma=gamma, factor=factor)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def play(env: MaskedKassenEnv, policy: Callable[[np.ndarray, np.ndarray], int],
         seeds: range) -> dict[str, int]:
    """Games of ``policy(obs, mask) -> action`` on the given seeds: wins, draws, losses."""
    out = {"wins": 0, "draws": 0, "losses": 0}
    for s in seeds:
        obs, _ = env.reset(seed=s)
        done = False
        reward = 0.0
        while not done:
            obs, reward, terminated, truncated, info = env.step(policy(obs, env.action_masks()))
            reward = info.get("env_reward", reward)  # the game's own reward, without any shaping
            done = terminated or truncated
        out["wins" if reward > 0 else "losses" if reward < 0 else "draws"] += 1
    return out


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _plot(record: dict[str, Any], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = record["curve"]
    steps = [p["steps"] for p in pts]
    cpu = [p["train_cpu_s"] / 60 for p in pts]
    rate = [p["win_rate"] for p in pts]
    lo = [p["win_rate"] - p["wilson95"][0] for p in pts]
    hi = [p["wilson95"][1] - p["win_rate"] for p in pts]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, x, label in ((axes[0], steps, "learner steps"), (axes[1], cpu, "training CPU minutes")):
        ax.errorbar(x, rate, yerr=[lo, hi], marker="o", ms=3, capsize=2,
                    label=f"{record['curve_games']} games a point (Wilson 95%)")
        ev = record.get("evaluation")
        if ev:
            fx = ev["steps"] if x is steps else ev["train_cpu_s"] / 60
            ax.errorbar([fx], [ev["win_rate"]], yerr=[[ev["win_rate"] - ev["wilson95"][0]],
                                                      [ev["wilson95"][1] - ev["win_rate"]]],
                        marker="s", color="black", capsize=3, label=f"final: {ev['games']} games")
        if record.get("target") is not None:
            ax.axhline(record["target"], ls="--", color="grey", lw=1, label="target (Wilson lower bound)")
        ax.axhline(0.5, ls=":", color="grey", lw=1)
        ax.set_xlabel(label)
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(f"win rate against {record['opponent']}")
    axes[0].legend(fontsize=8, loc="lower right")
    fig.suptitle(f"MaskablePPO, {record['game']} {record['scenario'] or ''} (seat {record['seat']}), "
                 f"commit {record['commit']}")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("preset", choices=sorted(PRESETS))
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--seed", type=int, default=0, help="training seed (env and torch)")
    ap.add_argument("--cpu-minutes", type=float, help="training CPU budget (default: the preset's)")
    ap.add_argument("--max-steps", type=int, default=10**9, help="stop after this many learner steps")
    ap.add_argument("--wall-minutes", type=float, default=1e9,
                    help="also stop training after this much wall-clock time (a shared machine's deadline)")
    ap.add_argument("--every", type=int, help="learner steps between the curve's points")
    ap.add_argument("--curve-games", type=int, default=100)
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--envs", type=int, help="envs in the (single-process) vector env (default: the preset's)")
    ap.add_argument("--out", help="OUT.png and OUT.json (default docs/rl/<preset>-<opponent>)")
    ap.add_argument("--model", help="save the trained model here (a .zip; the action slots beside it, .slots.json)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override one of the preset's settings (VALUE in JSON: --set shaping=0.2 "
                         "--set slots=null --set net=[64,64])")
    args = ap.parse_args(argv)

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    cfg = dict(PRESETS[args.preset])
    for kv in args.set:
        key, sep, val = kv.partition("=")
        if not sep or key not in cfg or key in ("game", "scenario"):
            ap.error(f"--set {kv}: expected KEY=VALUE with KEY one of "
                     f"{', '.join(k for k in cfg if k not in ('game', 'scenario'))}")
        try:
            cfg[key] = json.loads(val)
        except json.JSONDecodeError:
            ap.error(f"--set {kv}: {val!r} is not a JSON value")
    if args.envs is None:  # after --set: --set envs=N counts
        args.envs = cfg["envs"]
    budget = 60 * (args.cpu_minutes if args.cpu_minutes is not None else cfg["cpu_minutes"])
    every = args.every or cfg["every"]
    out = Path(args.out or Path(__file__).resolve().parent.parent / "docs" / "rl" / f"{args.preset}-{args.opponent}")
    out.parent.mkdir(parents=True, exist_ok=True)
    game, scenario = cfg["game"], cfg["scenario"]

    slots = ActionSlots(cfg["slots"]) if cfg["slots"] else None

    def one() -> MaskedKassenEnv:
        return make_env(game, scenario, args.opponent, max_episode_steps=cfg["max_episode_steps"],
                        slots=slots, shaping=cfg["shaping"], gamma=cfg["gamma"], factor=cfg["factor"])

    venv = DummyVecEnv([one for _ in range(args.envs)])
    venv.seed(args.seed)
    model = MaskablePPO("MlpPolicy", venv, seed=args.seed, verbose=0, device="cpu",
                        n_steps=cfg["n_steps"], batch_size=cfg["batch_size"], n_epochs=cfg["n_epochs"],
                        ent_coef=cfg["ent_coef"], gamma=cfg["gamma"], gae_lambda=cfg["gae_lambda"],
                        learning_rate=cfg["learning_rate"],
                        policy_kwargs={"net_arch": cfg["net"]})
    # the scoring env: the same game, action slots and cap, the env's reward alone (no shaping)
    probe = make_env(game, scenario, args.opponent, max_episode_steps=cfg["max_episode_steps"], slots=slots,
                     factor=cfg["factor"])

    pol = model.policy

    def greedy(obs: np.ndarray, mask: np.ndarray) -> int:
        """``model.predict(obs, action_masks=mask, deterministic=True)``, the output layer computed
        for the legal actions only (a few of C&C's 34,986): the most likely legal action."""
        legal = np.flatnonzero(mask)
        with torch.no_grad():
            feats = pol.extract_features(torch.as_tensor(obs).unsqueeze(0), pol.pi_features_extractor)
            latent = pol.mlp_extractor.forward_actor(feats)  # type: ignore[arg-type]
            idx = torch.as_tensor(legal)
            net: Any = pol.action_net
            logits = latent @ net.weight[idx].T + net.bias[idx]
        return int(legal[int(logits.argmax())])

    def score(seeds: range) -> dict[str, Any]:
        res = play(probe, greedy, seeds)
        lo, hi = wilson(res["wins"], len(seeds))
        return {**res, "games": len(seeds), "win_rate": res["wins"] / len(seeds), "wilson95": [lo, hi],
                "seeds": [seeds.start, seeds.stop - 1]}

    target = {("clans", "random"): 0.75, ("skirmish", "random"): 0.60}.get((args.preset, args.opponent))
    record: dict[str, Any] = {
        "preset": args.preset, "game": game, "scenario": scenario, "opponent": args.opponent, "seat": 0,
        "skip_single": True, "algorithm": "sb3_contrib.MaskablePPO", "settings": cfg, "envs": args.envs,
        "train_seed": args.seed, "curve_games": args.curve_games, "target": target, "cpu_budget_s": budget,
        "commit": _commit(), "python": platform.python_version(), "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(), "curve": [], "evaluation": None,
    }
    train_cpu = 0.0
    wall0 = time.time()

    def point() -> None:
        c0 = time.process_time()
        p = score(range(CURVE_SEED, CURVE_SEED + args.curve_games))
        p.update(steps=int(model.num_timesteps), train_cpu_s=round(train_cpu, 1),
                 eval_cpu_s=round(time.process_time() - c0, 1), wall_s=round(time.time() - wall0, 1),
                 load=os.getloadavg()[0], slots_used=None if slots is None else len(slots.action))
        record["curve"].append(p)
        print(f"steps {p['steps']:>8}  train CPU {train_cpu / 60:6.1f} min  win rate {p['win_rate']:.3f} "
              f"[{p['wilson95'][0]:.3f}, {p['wilson95'][1]:.3f}]  (eval {p['eval_cpu_s']} s, load {p['load']:.1f})",
              flush=True)
        out.with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n")
        _plot(record, out.with_suffix(".png"))

    point()
    while (train_cpu < budget and model.num_timesteps < args.max_steps
           and time.time() - wall0 < 60 * args.wall_minutes):
        if cfg["lr_final"] is not None:  # linear in the training CPU spent (learn() is called again and again)
            frac = min(1.0, train_cpu / budget)
            lr_now = cfg["learning_rate"] + frac * (cfg["lr_final"] - cfg["learning_rate"])
            model.lr_schedule = lambda _progress, lr=lr_now: lr
        c0 = time.process_time()
        model.learn(total_timesteps=every, reset_num_timesteps=False)
        train_cpu += time.process_time() - c0
        point()
    record["stopped_by"] = ("cpu-minutes" if train_cpu >= budget else "max-steps"
                            if model.num_timesteps >= args.max_steps else "wall-minutes")
    if args.model:
        model.save(args.model)
        if slots is not None:
            Path(args.model).with_suffix(".slots.json").write_text(json.dumps(slots.action) + "\n")
    c0 = time.process_time()
    ev = score(range(EVAL_SEED, EVAL_SEED + args.eval_games))
    ev.update(steps=int(model.num_timesteps), train_cpu_s=round(train_cpu, 1),
              eval_cpu_s=round(time.process_time() - c0, 1))
    record["evaluation"] = ev
    record["uptime"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    out.with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n")
    _plot(record, out.with_suffix(".png"))
    verdict = "" if target is None else (" (target met)" if ev["wilson95"][0] >= target
                                         else f" (target {target:.2f} NOT met)")
    print(f"{args.preset} against {args.opponent}: {ev['wins']}/{ev['games']} won "
          f"({ev['draws']} draws), win rate {ev['win_rate']:.3f}, Wilson 95% "
          f"[{ev['wilson95'][0]:.3f}, {ev['wilson95'][1]:.3f}]{verdict}; "
          f"{ev['steps']} steps, {train_cpu / 60:.1f} training CPU minutes; seeds "
          f"{EVAL_SEED}..{EVAL_SEED + args.eval_games - 1}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
