"""``labkit puzzle campaign --curve A:B:N | FILE.csv``: levels generated to a difficulty curve.

Called by the ``campaign`` command of :mod:`.solver` when ``--curve`` is given: parses the
curve (:func:`~labkit.hexpuzzle.solving.curve.parse_curve`), generates one level per target
(:func:`~labkit.hexpuzzle.solving.curve.campaign_from_curve`, with a progress bar), writes the
campaign file atomically and prints target against achieved per slot.

What the curve's values mean
----------------------------
* Values above 1 are structural scores (0–100). Every reachable score is above 1 (about 17–85),
  so a curve whose values all lie in 0–1 is read as first-try **success rates** instead, for a
  player of ``--ability`` (default 0, a regular player).
* A success curve is judged by the skill model in ``--model`` (a file written by
  :meth:`SkillModel.save`, e.g. by ``labkit puzzle skill ... --out model.json``). Without
  ``--model`` it uses the shipped model (:func:`~labkit.hexpuzzle.shipped_skill_model`, fitted
  to simulated players), and says so. ``--model`` or ``--ability`` with a score curve is an
  error, as is a mixed curve (some values in 0–1, some above).
* ``--rotations``, ``--tiles`` and ``--radius`` (``N`` or ``LO-HI``) constrain every level; a
  combination no level can meet, or a target it makes impossible, is refused before any search,
  naming the option and the reachable range.
"""

from __future__ import annotations

import math

from labkit import ArgumentError


def curve_campaign(
    curve: str,
    out: str,
    seed: int,
    time_limit: float,
    model_path: str | None = None,
    ability: float | None = None,
    wanted: dict | None = None,
) -> int:
    """Generate, write and report a campaign to ``curve``; returns the exit status."""
    from labkit.hexpuzzle.solving.curve import campaign_from_curve, parse_curve

    targets = parse_curve(curve, argument="--curve")
    bad = [t for t in targets if not 0 <= t <= 100]
    if bad:
        raise ArgumentError("targets must lie in 0-100 (scores) or 0-1 (success rates)",
                            argument="--curve", value=bad[0])  # fmt: skip
    success = all(t <= 1 for t in targets)
    if not success and any(t <= 1 for t in targets):
        raise ArgumentError("mixes success rates (0-1) with scores (above 1)",
                            argument="--curve", value=curve)  # fmt: skip
    if not time_limit > 0:
        raise ArgumentError("must be positive", argument="--time-limit", value=time_limit)
    if not success and model_path is not None:
        raise ArgumentError("a score curve needs no model; success rates are values in 0-1",
                            argument="--model", value=model_path)  # fmt: skip
    if not success and ability is not None:
        raise ArgumentError("only a success-rate curve (values in 0-1) has a player ability",
                            argument="--ability", value=ability)  # fmt: skip
    if ability is not None and not math.isfinite(ability):
        raise ArgumentError("must be a finite number", argument="--ability", value=ability)
    model, which = _model(model_path) if success else (None, "")
    if success:
        print(f"success-rate curve for ability {ability or 0.0:g}, judged by {which}")
    try:
        levels = campaign_from_curve(targets, seed, model=model, ability=ability or 0.0,
                                     time_limit=time_limit, **(wanted or {}))  # fmt: skip
    except ArgumentError as exc:
        if exc.argument not in ("rotations", "tiles", "radius") and not (
            exc.argument.startswith("targets[")
        ):
            raise
        # the designer typed --curve and --tiles, not targets[3] or tiles
        flag = "--curve" if exc.argument.startswith("targets[") else f"--{exc.argument}"
        why = exc.message.split(": ", 1)[-1]
        raise ArgumentError(f"{exc.argument}: {why}" if flag == "--curve" else why,
                            argument=flag, value=exc.value) from None  # fmt: skip
    levels.save(out)
    rows = levels.rows()
    kind = "success" if success else "score"
    print(f"{'slot':>4} {'target':>7} {kind:>7} {'score':>5} {'rot':>3} {'tiles':>5}  level")
    for r in rows:
        print(
            f"{r['slot']:>4} {r['target']:>7.3g} {r['achieved']:>7.3g} {r['score']:>5} "
            f"{r['rotations']:>3} {r['tiles']:>5}  {r['id']}"
        )
    within = sum(bool(r["within"]) for r in rows)
    tol = "±0.05" if success else "±2"
    print(f"wrote {out}: {len(rows)} levels, {within} within {tol} of their target")
    return 0


def _model(path: str | None):
    """The skill model of ``--model`` (checked before any search), or the shipped one."""
    from labkit.hexpuzzle.difficulty.skill import SkillModel, shipped_skill_model

    if path is None:
        return shipped_skill_model(), "the shipped skill model (simulated players)"
    model = SkillModel.load(path)  # a bad file raises SkillModelError naming it
    if not model.features:
        raise ArgumentError("this model was fitted with features=False and cannot predict "
                            "new levels", argument="--model", value=path)  # fmt: skip
    return model, path
